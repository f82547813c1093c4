import { describeReplicaTable } from './replicas/replica-table';

// The replica table (src/replicas/replica-table.ts) on PostgreSQL: 2, then 4 sample hosts on one shared store.

jest.setTimeout(300_000);

describeReplicaTable('postgresql');
