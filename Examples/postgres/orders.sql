-- orders: insert an order, take its quantity from a skewed product's stock (r³/10000 for r in
-- 1..100: product 0 gets 21% of the orders, the first five 36%), read the customer's last five.
\set customer random(1, 10000)
\set r random(1, 100)
\set product (:r * :r * :r) / 10000
\set qty random(1, 5)
BEGIN;
INSERT INTO orders (customer, product, qty) VALUES (:customer, :product, :qty);
UPDATE products SET stock = stock - :qty WHERE id = :product;
SELECT id, product, qty FROM orders WHERE customer = :customer ORDER BY id DESC LIMIT 5;
END;
