// The system libpq (https://www.postgresql.org/docs/current/libpq.html), PostgreSQL's client
// library, for PoolSizePostgres: one blocking connection per pool thread, as a JDBC or psycopg
// pool holds them. Debian puts its header under postgresql/, which pkg-config's flags add.
#ifndef POOLSIZE_CPOSTGRES_H
#define POOLSIZE_CPOSTGRES_H
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
#endif
