-- The words of the full-text index, for planning prefix searches (issue 10; docs/search.md
-- "Search plans"). An fts5vocab table of type 'instance' over products_fts: one row per
-- occurrence of a word, read lazily in word order, so the planner can list the words a prefix
-- begins (`Leitungss` -> `leitungsschutzschalter`) and bound their occurrences with a few
-- seeks, instead of letting FTS5 merge every document of those words before the first row.
-- It stores nothing: it reads products_fts's own index.
CREATE VIRTUAL TABLE `products_fts_terms` USING fts5vocab(`products_fts`, 'instance');
