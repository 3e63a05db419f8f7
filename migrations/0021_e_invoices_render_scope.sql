-- The e-invoices module's second scope, e_invoices:render (POST /api/v1/e-invoices/render: an incoming
-- e-invoice checked and printed readable, as a report). A key can only grant scopes it holds, so without
-- this no existing key could reach it. Rendering queues an ordinary report, counted against the key's
-- quota like generate-pdf-async: keys that may submit reports (reports:write) gain it.
UPDATE access_keys SET scopes = scopes || ' e_invoices:render' WHERE ' ' || scopes || ' ' LIKE '% reports:write %';
