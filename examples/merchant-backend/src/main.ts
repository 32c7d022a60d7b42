import { createMerchantServer } from './merchant-server';

/*
 * node dist/examples/merchant-backend/src/main.js, with:
 *   PP_API_KEY       the merchant's test secret key (npm start prints it)
 *   WEBHOOK_SECRET   the secret that signs deliveries: `npm run cli -- listen --print-secret`,
 *                    or the secret of a webhook endpoint (comma-separate two during a rotation)
 *   PP_API_BASE      default http://localhost:3000
 *   PORT             default 4000
 *   PUBLIC_URL       where payers' browsers reach this server, for the session's success and cancel URLs;
 *                    default http://localhost:<PORT>
 */
const required = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`${name} is required (see examples/merchant-backend/README.md)\n`);
    process.exit(2);
  }
  return value;
};

const port = Number(process.env.PORT ?? 4000);
const { server } = createMerchantServer({
  apiKey: required('PP_API_KEY'),
  apiBase: process.env.PP_API_BASE ?? 'http://localhost:3000',
  publicUrl: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
  webhookSecrets: required('WEBHOOK_SECRET').split(',').map((secret) => secret.trim()).filter(Boolean),
});
server.listen(port, () => process.stdout.write(`merchant backend on http://localhost:${port} (POST /orders, POST /webhooks)\n`));
