import { watchListItemsLimit } from '../../../operations/schemas/watch-lists.js';
import { AppError } from '../../errors.js';
import type { Database } from '../../store/db.js';
import { requireAudience, requireBuilt } from '../audiences/record.js';
import type { NetworkClock } from '../network-clock.js';
import { networkBaseUrl } from '../network-urls.js';
import type { KeyGrant } from '../principal.js';
import { ensureCheckJob, requireCapHolds, requireWatchList } from './watch-lists.js';

/**
 * A built audience's prospects (for a people list) or companies (for a companies list) added to a
 * watch list in one statement: each record is already the catalog's, so only a record the network
 * has no identifier for (no slug, no network id) cannot be checked and is counted as such. The
 * list's limit holds as for addWatchListItems: past it, nothing is added.
 */
export async function addWatchListItemsFromAudience(
  db: Database,
  clock: NetworkClock,
  accountId: number,
  input: { watchListId: string; audienceId: string },
  key: KeyGrant | null = null,
) {
  return db.transaction(async (tx) => {
    const list = await requireWatchList(tx, accountId, input.watchListId, true);
    requireCapHolds(list, key);
    const audience = await requireAudience(tx, accountId, input.audienceId);
    const records = list.kind === 'people' ? 'prospects' : 'companies';
    requireBuilt(audience, `add to a watch list the ${records} of`);
    const held = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2',
      [accountId, list.id],
    );
    const count = held.rows[0]?.n ?? 0;
    const source =
      list.kind === 'people'
        ? `SELECT p.id AS catalog_id, coalesce($5::text || p.network_slug, p.network_user_id::text) AS input,
                  p.network_slug AS slug, p.network_user_id AS network_id
             FROM audience_prospects a JOIN people p ON p.id = a.person_id
            WHERE a.account_id = $1 AND a.audience_id = $3`
        : `SELECT c.id AS catalog_id, coalesce(c.domains[1], c.network_primary_slug, c.network_org_id::text) AS input,
                  c.network_primary_slug AS slug, c.network_org_id AS network_id
             FROM audience_companies a JOIN companies c ON c.id = a.company_id
            WHERE a.account_id = $1 AND a.audience_id = $3`;
    const result = await tx.query<{ records: number; checkable: number; added: number }>(
      `WITH source AS (${source}),
            checkable AS (SELECT * FROM source WHERE slug IS NOT NULL OR network_id IS NOT NULL),
            inserted AS (
              INSERT INTO watch_list_items (account_id, watch_list_id, catalog_id, input, ref_slug, ref_network_id, next_check_at)
              SELECT $1, $2, catalog_id, input, slug, network_id, $4 FROM checkable ORDER BY catalog_id
              ON CONFLICT (account_id, watch_list_id, catalog_id) DO NOTHING
              RETURNING 1)
       SELECT (SELECT count(*) FROM source)::int AS records, (SELECT count(*) FROM checkable)::int AS checkable,
              (SELECT count(*) FROM inserted)::int AS added`,
      [
        accountId,
        list.id,
        audience.id,
        clock.now().toISOString(),
        // The profile URL an item of a people list is shown with.
        ...(list.kind === 'people' ? [`${networkBaseUrl}/in/`] : []),
      ],
    );
    const {
      records: total,
      checkable,
      added,
    } = result.rows[0] as { records: number; checkable: number; added: number };
    if (count + added > watchListItemsLimit) {
      throw new AppError(
        'invalid_request',
        `audienceId: a watch list holds at most ${watchListItemsLimit} items; it has ${count}, and the audience's ${records} would add ${added}. Nothing was added.`,
        {
          details: { issues: [{ field: 'audienceId', message: `at most ${watchListItemsLimit - count} more items` }] },
        },
      );
    }
    if (added > 0 && !list.paused) await ensureCheckJob(tx, accountId, list.id);
    return {
      watchListId: String(list.id),
      audienceId: String(audience.id),
      records: total,
      added,
      items: count + added,
      alreadyInList: checkable - added,
      notCheckable: total - checkable,
    };
  });
}
