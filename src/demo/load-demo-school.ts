import { openBulkWriter } from '../store/bulk-writer';
import type { Store } from '../store/open-store';
import { generateDemoSchool, type DemoOptions, type DemoSummary } from './generate-school';

/** Fills an empty store with a demo school in one transaction: all of it lands, or none. */
export async function loadDemoSchool(store: Store, options: DemoOptions): Promise<DemoSummary> {
  const writer = openBulkWriter(store.connection);
  try {
    const summary = await generateDemoSchool(writer, options);
    await writer.finish();
    return summary;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
