// Plays every contract-tests/scenarios/*.json against live hosts through this client.
//
// The scenarios live once, at the repository root (contract-tests/); this suite plays whatever
// is there. AGENTIC_DRIVER_CONTRACT_TESTS points at another contract-tests directory (for
// trying out scenarios that are not committed yet). Until the directory exists in the
// repository, the suite reports one skipped test saying so.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { type Host, repoRoot, startHost } from '../harness.js';
import { loadScenarios, play, type Scenario, tokenEnvironment } from './player.js';

const CONTRACT_DIR = process.env.AGENTIC_DRIVER_CONTRACT_TESTS || join(repoRoot(), 'contract-tests');
const SCENARIOS_DIR = join(CONTRACT_DIR, 'scenarios');
const HOST_CONFIGS: Record<string, string> = {
  main: join(CONTRACT_DIR, 'host.json'),
  'no-sessions': join(CONTRACT_DIR, 'host-no-sessions.json'),
  quotas: join(CONTRACT_DIR, 'host-quotas.json'),
};

if (!existsSync(SCENARIOS_DIR)) {
  it('contract scenarios', { skip: `${SCENARIOS_DIR} does not exist in this checkout yet` }, () => {});
} else {
  const files = readdirSync(SCENARIOS_DIR)
    .filter((file) => file.endsWith('.json') && file !== 'schema.json')
    .sort();
  const scenarios = loadScenarios(SCENARIOS_DIR, files);
  const shared = new Map<string, Promise<Host>>();

  const hostFor = (scenario: Scenario): Promise<Host> => {
    const config = HOST_CONFIGS[scenario.host];
    if (config === undefined) throw new Error(`unknown host ${scenario.host}`);
    if (scenario.isolated) return startHost({ config, env: tokenEnvironment() });
    if (!shared.has(scenario.host)) shared.set(scenario.host, startHost({ config, env: tokenEnvironment() }));
    return shared.get(scenario.host)!;
  };

  after(async () => {
    for (const host of shared.values()) await (await host).stop();
  });

  describe('contract scenarios', () => {
    for (const scenario of scenarios) {
      it(scenario.name, async () => {
        const host = await hostFor(scenario);
        try {
          await play(scenario, host.baseUrl);
        } finally {
          if (scenario.isolated) await host.stop();
        }
      });
    }
  });
}
