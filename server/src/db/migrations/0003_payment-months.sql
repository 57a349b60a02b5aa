CREATE TABLE "payment_months" (
	"month" date PRIMARY KEY NOT NULL,
	"payments" integer NOT NULL,
	"net_paise" bigint NOT NULL
);
--> statement-breakpoint
-- Written by hand: payment_months follows every change to payments, one statement at a
-- time (transition tables), so a bulk insert costs one aggregate rather than a trigger per row.
CREATE FUNCTION payment_months_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM payment_months;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO payment_months AS m (month, payments, net_paise)
      SELECT date_trunc('month', paid_at AT TIME ZONE 'Asia/Kolkata')::date, count(*), sum(amount_paise - refunded_paise)
      FROM new_rows GROUP BY 1
      ON CONFLICT (month) DO UPDATE SET payments = m.payments + excluded.payments, net_paise = m.net_paise + excluded.net_paise;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payment_months AS m (month, payments, net_paise)
      SELECT date_trunc('month', paid_at AT TIME ZONE 'Asia/Kolkata')::date, -count(*), -sum(amount_paise - refunded_paise)
      FROM old_rows GROUP BY 1
      ON CONFLICT (month) DO UPDATE SET payments = m.payments + excluded.payments, net_paise = m.net_paise + excluded.net_paise;
  ELSE
    -- An update (a refund, or a payment moved to another date): out with the old row, in with the new.
    INSERT INTO payment_months AS m (month, payments, net_paise)
      SELECT date_trunc('month', paid_at AT TIME ZONE 'Asia/Kolkata')::date, sum(payments), sum(net_paise)
      FROM (SELECT paid_at, 1 AS payments, amount_paise - refunded_paise AS net_paise FROM new_rows
            UNION ALL
            SELECT paid_at, -1, refunded_paise - amount_paise FROM old_rows) AS changes
      GROUP BY 1 HAVING sum(payments) <> 0 OR sum(net_paise) <> 0
      ON CONFLICT (month) DO UPDATE SET payments = m.payments + excluded.payments, net_paise = m.net_paise + excluded.net_paise;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER payment_months_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_months_follow();
--> statement-breakpoint
CREATE TRIGGER payment_months_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_months_follow();
--> statement-breakpoint
CREATE TRIGGER payment_months_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payment_months_follow();
--> statement-breakpoint
CREATE TRIGGER payment_months_truncate AFTER TRUNCATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION payment_months_follow();
--> statement-breakpoint
INSERT INTO payment_months (month, payments, net_paise)
  SELECT date_trunc('month', paid_at AT TIME ZONE 'Asia/Kolkata')::date, count(*), sum(amount_paise - refunded_paise)
  FROM payments GROUP BY 1;
