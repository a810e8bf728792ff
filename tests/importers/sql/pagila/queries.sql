-- The rental store's statements, each after how often it runs.

-- calls/s: 40
SELECT * FROM public.film WHERE film_id = $1;

-- calls/s: 25
SELECT * FROM public.customer WHERE customer_id = $1;

-- calls/s: 15
-- name: Rentals of a customer, newest first
SELECT r.* FROM public.rental r WHERE r.customer_id = $1 ORDER BY r.rental_date DESC LIMIT 20;

-- calls/s: 10
SELECT fa.* FROM public.film_actor fa JOIN public.film f ON f.film_id = fa.film_id WHERE fa.actor_id = $1;

-- calls/s: 8
SELECT * FROM public.film_actor WHERE film_id = $1;

-- calls/s: 6
SELECT i.* FROM public.inventory i WHERE i.film_id = $1 AND i.store_id = $2;

-- calls/s: 5
SELECT p.* FROM public.payment p WHERE p.customer_id = $1 AND p.payment_date >= $2 ORDER BY p.payment_date;

-- calls/s: 4
SELECT * FROM public.actor WHERE actor_id = $1;

-- calls/s: 3
INSERT INTO public.rental (rental_date, inventory_id, customer_id, staff_id) VALUES (now(), $1, $2, $3);

-- calls/s: 3
UPDATE public.rental SET return_date = $1 WHERE rental_id = $2;

-- calls/s: 2
INSERT INTO public.payment (customer_id, staff_id, rental_id, amount, payment_date) VALUES ($1, $2, $3, $4, now());

-- calls/s: 0.5
SELECT count(*) FROM public.rental;

-- calls/s: 0.2
SELECT * FROM public.film WHERE fulltext @@ to_tsquery($1);

-- calls/s: 0.1
SELECT * FROM public.customer WHERE first_name = $1 OR last_name = $2;
