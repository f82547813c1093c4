import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addClickHouseHealth } from './add-clickhouse-health';
import {
  clickHousePassword,
  clickHouseUrl,
  clickHouseUser,
  ensureClickHouse,
} from './clickhouse-test-server';

describeProbeConformance({
  kind: 'ClickHouse',
  add: addClickHouseHealth,
  healthyUpstream: async () => {
    await ensureClickHouse();
    return {
      entry: { ConnectionString: clickHouseUrl, Username: clickHouseUser, Password: clickHousePassword },
      secrets: [clickHousePassword],
      close: async () => undefined,
    };
  },
});
