/** Every migration of the gateway schema, oldest first. */
export const GatewayMigrations: Function[] = [];
