"""Old and new search plans side by side on one SQLite file (docs/search.md "Prefixes as words").

For each query (|-separated): the plan's statement of main before migration 0011 (each prefix
counted through MATCH) and of src/catalog/search-plan.ts (words a prefix begins listed from
products_fts_terms first), then the page query of the chosen plan; wall p50/p95 and median CPU
of the process in ms, and whether both plans return the same rows. Mirrors search-plan.ts.
    python3 bench/search-1m/compare.py FILE [RUNS] "Leitungss|Kabeltrommel"
"""
import sqlite3, sys, time, json, re, statistics, unicodedata
db = sys.argv[1]; N = int(sys.argv[2]) if len(sys.argv) > 2 else 15
con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
cur = con.cursor()
cat, comp = cur.execute("SELECT catalog_id, company_id FROM products LIMIT 1").fetchone()
LIMIT = 5000; CAP = 5001; K = 16; TOP = '\U0010FFFF'
lit = lambda v: "'" + v.replace("'", "''") + "'"
scope = f'"products"."catalog_id" = {lit(cat)} and "products"."company_id" = {lit(comp)} and "products"."parent_id" is null'
def cnt(m): return f"(SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH {lit(m)} LIMIT {CAP}))"
def words_of(q):
    out = []
    for w in q.split():
        quoted = '"' + w.replace('"', '""') + '"'
        toks = list(re.finditer(r'[^\W_]+', w))
        last = toks[-1]; lt = last.group(0); n = len(lt)
        indexed = n in (2, 3)
        folded = None
        if not indexed and re.fullmatch(r'[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF]+', lt):
            f = ''.join(c for c in unicodedata.normalize('NFD', lt) if not unicodedata.combining(c)).lower()
            if re.fullmatch(r'[a-z0-9ß]+', f): folded = f
        out.append(dict(exact=quoted, prefix=quoted + '*', indexed=indexed, folded=folded, head=w[:last.start()]))
    return out
def counts_old(ws):
    return "SELECT *, " + ", ".join(f"CASE WHEN e{i} > {LIMIT} THEN 0 ELSE {cnt(w['prefix'])} END AS p{i}" for i, w in enumerate(ws)) + \
        " FROM (SELECT " + ", ".join(f"{cnt(w['exact'])} AS e{i}" for i, w in enumerate(ws)) + ")"
def counts_new(ws):
    listed = []; cols = []
    for i, w in enumerate(ws):
        c = f"e{i} > {LIMIT}"
        if w['folded'] is None:
            cols.append(f"CASE WHEN {c} THEN 0 ELSE {cnt(w['prefix'])} END AS p{i}"); continue
        f = w['folded']; u = lit(f + TOP)
        listed.append(f"CASE WHEN {c} THEN NULL ELSE (WITH RECURSIVE t(term, n) AS (SELECT (SELECT term FROM products_fts_terms WHERE term >= {lit(f)} AND term <= {u} LIMIT 1), 1 UNION ALL SELECT (SELECT term FROM products_fts_terms WHERE term >= t.term || '0' AND term <= {u} LIMIT 1), n + 1 FROM t WHERE t.term IS NOT NULL AND n <= {K}) SELECT json_group_array(term) FROM t WHERE term IS NOT NULL) END AS w{i}")
        alt = f"(SELECT group_concat('\"' || {lit(w['head'].replace(chr(34), chr(34)*2))} || value || '\"', ' OR ') FROM json_each(w{i}))"
        cols.append(f"CASE WHEN {c} OR json_array_length(w{i}) = 0 THEN 0 WHEN json_array_length(w{i}) <= {K} THEN (SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH {alt} LIMIT {CAP})) ELSE {cnt(w['prefix'])} END AS p{i}")
    return "WITH c AS MATERIALIZED (SELECT " + ", ".join(f"{cnt(w['exact'])} AS e{i}" for i, w in enumerate(ws)) + "), w AS MATERIALIZED (SELECT *" + "".join(", " + l for l in listed) + " FROM c) SELECT *, " + ", ".join(cols) + " FROM w"
def plan(ws, row, new):
    ph = []
    for i, w in enumerate(ws):
        e = row[i]
        if e > LIMIT: ph.append((w['exact'], e, True)); continue
        names = [d[0] for d in cur.description]
        p = row[names.index(f'p{i}')]
        if not new or w['folded'] is None: ph.append((w['prefix'], p, w['indexed'])); continue
        terms = json.loads(row[names.index(f'w{i}')] or '[]')
        if len(terms) <= K:
            alts = ['"' + (w['head'] + t).replace('"', '""') + '"' for t in terms]
            ph.append((alts[0] if len(alts) == 1 else '(' + ' OR '.join(alts) + ')', p, True))
        else: ph.append((w['prefix'], p, False))
    if any(h == 0 for _, h, _ in ph): return None
    rare = [p for p in ph if p[1] <= LIMIT]
    allm = ' AND '.join(p[0] for p in ph)
    if not rare: return ('broad', allm, [])
    driving = ' AND '.join(p[0] for p in ph if p[1] <= LIMIT or not p[2])
    checks = [p[0] for p in ph if p[1] > LIMIT and p[2]]
    return ('ranked', driving, checks)
def page_sql(pl):
    kind, match, checks = pl
    if kind == 'broad':
        return f'SELECT "products".*, f.rowid AS search_doc FROM products_fts f CROSS JOIN "products" ON "products".rowid = f.rowid WHERE f.products_fts MATCH {lit(match)} AND {scope} ORDER BY f.rowid LIMIT 51'
    ch = ''.join(f' AND EXISTS (SELECT 1 FROM products_fts c WHERE c.products_fts MATCH {lit(x)} AND c.rowid = f.rowid)' for x in checks)
    return f'SELECT "products".*, h.r AS search_rank FROM (SELECT coalesce(d.parent_id, d.id) AS mid, min(f.rank) AS r FROM products_fts f CROSS JOIN "products" d ON d.rowid = f.rowid WHERE f.products_fts MATCH {lit(match)} AND d.catalog_id = {lit(cat)}{ch} GROUP BY mid) h CROSS JOIN "products" ON "products"."id" = h.mid WHERE {scope} ORDER BY h.r, "products"."id" LIMIT 51'
def run(q, new):
    ws = words_of(q)
    t0 = time.perf_counter(); c0 = time.process_time()
    row = cur.execute(counts_new(ws) if new else counts_old(ws)).fetchone()
    pl = plan(ws, row, new)
    rows = cur.execute(page_sql(pl)).fetchall() if pl else []
    return (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000, pl, [r[4] for r in rows]
qs = sys.argv[3].split('|')
for q in qs:
    res = {}
    for new in (False, True):
        run(q, new); run(q, new)
        ts = [run(q, new) for _ in range(N)]
        wall = sorted(t[0] for t in ts); cpu = sorted(t[1] for t in ts)
        res[new] = (statistics.median(wall), wall[int(0.95 * (len(wall) - 1))], statistics.median(cpu), ts[0][2], ts[0][3])
    same = res[False][4] == res[True][4]
    print(f"{q!r:32} old p50/p95 {res[False][0]:7.1f}/{res[False][1]:7.1f} ms cpu {res[False][2]:6.1f} | new {res[True][0]:6.1f}/{res[True][1]:6.1f} ms cpu {res[True][2]:6.1f} | same rows: {same} ({len(res[True][4])}) plan {str(res[True][3])[:90]}")
