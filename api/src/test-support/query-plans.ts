import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** A node of PostgreSQL's `explain (analyze, format json)` plan. */
export type PlanNode = Record<string, unknown>;

/** How many rows of `relation` a plan read: its scans' rows and those their filters removed, times their loops. */
export function rowsRead(plan: PlanNode, relation: string): number {
  let n = 0;
  if (plan['Relation Name'] === relation) {
    const loops = Number(plan['Actual Loops'] ?? 1);
    n += (Number(plan['Actual Rows'] ?? 0) + Number(plan['Rows Removed by Filter'] ?? 0) + Number(plan['Rows Removed by Index Recheck'] ?? 0)) * loops;
  }
  for (const child of (plan.Plans as PlanNode[] | undefined) ?? []) n += rowsRead(child, relation);
  return n;
}

/** PostgreSQL: a query run again under `explain (analyze, format json)`, with its parameters; its plan's top node. */
export async function analyzedPlan(db: Kysely<Database>, query: { sql: string; parameters: readonly unknown[] }): Promise<PlanNode> {
  const { rows } = await db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({
    sql: `explain (analyze, format json) ${query.sql}`,
    parameters: query.parameters,
    query: { kind: 'RawNode' },
    queryId: { queryId: 'explain' },
  } as never);
  return rows[0]!['QUERY PLAN'][0]!.Plan;
}
