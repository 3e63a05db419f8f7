-- The e-invoices module's scope, e_invoices:validate (POST /api/v1/e-invoices/validate). Keys that existed
-- before hold it not, and a key can only grant scopes it holds: without this, no key could ever reach the
-- check. A key that may submit reports already runs the same EN 16931 rules on options.e_invoice (422
-- e_invoice_invalid), and checking reads no account data, so it gains e_invoices:validate.
UPDATE access_keys SET scopes = scopes || ' e_invoices:validate' WHERE ' ' || scopes || ' ' LIKE '% reports:write %';
