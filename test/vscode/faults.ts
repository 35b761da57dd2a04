// Faults played back by an emulator (the sandbox, or a test's own) through its /_emulator control endpoint.

/**
 * Another writer's value that is not JSON, as the service may hold it (the emulator refuses to store one), answered
 * to the next `times` entry reads.
 */
export function notJsonEntryRead(times: number) {
  return {
    method: 'GET',
    path: '/entries/entry',
    status: 200,
    headers: { 'content-type': 'application/json', 'platform-entry-version': 'v-text' },
    body: 'just text, {',
    times,
  };
}

/** An entry read through cloud v2 (the sandbox) answered with a body cut short, for the next `times` reads. */
export function cutShortEntryReadV2(times: number) {
  return {
    method: 'GET',
    path: '@latest',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"path":"universes/1/data-stores/Inventory/scopes/global/entries/k","value":{"coins":',
    times,
  };
}

/** Adds a fault to the emulator at `baseUrl`. */
export async function addFault(baseUrl: string, fault: object): Promise<void> {
  const res = await fetch(`${baseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  if (!res.ok) throw new Error(`adding a fault: ${res.status} ${await res.text()}`);
}
