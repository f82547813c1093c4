import {
  readSqlServerConnectionString,
  type SqlServerConnectionSettings,
} from './sql-server-connection-string';

/**
 * The real SQL Server the tests use instead of the fake when MSSQL_CONNECTION_STRING is set (the variable
 * turbo.json declares), for example
 * `Server=127.0.0.1,1433;Database=master;User Id=sa;Password=...;Encrypt=true;TrustServerCertificate=true`.
 */
export function realSqlServer(): (SqlServerConnectionSettings & { connectionString: string }) | undefined {
  const connectionString = process.env.MSSQL_CONNECTION_STRING;
  if (!connectionString) return undefined;
  return { connectionString, ...readSqlServerConnectionString(connectionString) };
}
