-- The orders pool's tables (scripts/benchmark-orders.sh loads them): 101 products whose stock
-- every order updates, and the orders, indexed by customer for the read of the last five.
DROP TABLE IF EXISTS orders, products;
CREATE TABLE products (id int PRIMARY KEY, stock bigint NOT NULL);
INSERT INTO products SELECT g, 100000000 FROM generate_series(0, 100) g;
CREATE TABLE orders (
    id bigserial PRIMARY KEY, customer int NOT NULL, product int NOT NULL, qty int NOT NULL,
    created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_customer ON orders (customer, id);
