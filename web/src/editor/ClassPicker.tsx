import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { keys } from '../api/keys';
import { useI18n } from '../i18n/i18n';
import { QueryState } from '../components/QueryState';
import {
  type ClassChoice,
  classGroupFilter,
  classGroupLabel,
  getGroupReleases,
  getReleaseGroups,
  GROUP_LABELS,
  GROUPS,
  type Group,
  newestRelease,
  searchClasses,
  searchReleaseClasses,
} from './classification-api';

/**
 * Choose a system and a release (a loaded official one, or the built-in reference data), type a
 * class code, name or synonym, pick one of the matches (a list of buttons). A release with class
 * groups (ETIM IXF) offers a group filter ("all groups" first) and shows each match's group;
 * names of classes and groups are asked for in the interface language (the release's first
 * language where it has no names in it).
 */
export function ClassPicker({ taken, onPick }: { taken: ClassChoice[]; onPick: (c: ClassChoice) => void }) {
  const { t, lang } = useI18n();
  const [group, setGroup] = useState<Group>('ETIM');
  const releases = useQuery({
    queryKey: keys.groupReleases(group),
    queryFn: () => getGroupReleases(group),
    staleTime: 60_000,
  });
  const [chosen, setChosen] = useState<string | null>(null);
  // The newest loaded release by default; '' picks the built-in reference data.
  const release = chosen ?? newestRelease(releases.data ?? []) ?? '';
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const resultsId = useId();
  const classGroups = useQuery({
    queryKey: keys.releaseGroups(release, lang),
    queryFn: () => getReleaseGroups(release, lang),
    enabled: release !== '',
    staleTime: 5 * 60_000,
  });
  const [chosenGroup, setChosenGroup] = useState<{ release: string; code: string } | null>(null);
  const groupList = release ? (classGroups.data ?? []) : [];
  const classGroup = classGroupFilter(chosenGroup, release, groupList);
  useEffect(() => {
    const timer = window.setTimeout(() => setQ(text.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [text]);
  const results = useQuery({
    queryKey: release ? keys.releaseClassSearch(release, q, classGroup, lang) : keys.classSearch(group, q),
    queryFn: ({ signal }) =>
      release
        ? searchReleaseClasses(release, q, { classGroup, lang }, signal)
        : searchClasses(group, q, signal).then((items) => items.map((c) => ({ ...c, classGroup: null }))),
    enabled: q.length > 0 && !releases.isPending,
    staleTime: 5 * 60_000,
  });
  const replaced = taken.find((c) => c.group === group);

  return (
    <div className="class-picker">
      <div className="row">
        <label className="field">
          <span>{t('class.system')}</span>
          <select
            value={group}
            onChange={(e) => {
              setGroup(e.target.value as Group);
              setChosen(null);
            }}
          >
            {GROUPS.map((g) => (
              <option key={g} value={g}>
                {GROUP_LABELS[g]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('class.release')}</span>
          <select
            value={release}
            onChange={(e) => {
              setChosen(e.target.value);
              setChosenGroup(null);
            }}
          >
            {(releases.data ?? []).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
            <option value="">{t('class.builtIn')}</option>
          </select>
        </label>
        {groupList.length > 0 && (
          <label className="field">
            <span>{t('class.group')}</span>
            <select value={classGroup} onChange={(e) => setChosenGroup({ release, code: e.target.value })}>
              <option value="">{t('class.allGroups')}</option>
              {groupList.map((g) => (
                <option key={g.code} value={g.code}>
                  {classGroupLabel(g)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field grow">
          <span>{t('class.search')}</span>
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('class.searchPlaceholder')}
            aria-controls={resultsId}
          />
        </label>
      </div>
      {replaced && <p className="muted">{t('class.replaces', { code: replaced.code })}</p>}
      <div id={resultsId} aria-live="polite">
        {q && (
          <QueryState isPending={results.isPending} error={results.error} unsupportedText={t('class.unsupported')}>
            {results.data?.length ? (
              <ul className="result-list" aria-label={t('class.results')}>
                {results.data.slice(0, 30).map((c) => (
                  <li key={c.code}>
                    <button
                      type="button"
                      onClick={() => {
                        onPick({ code: c.code, name: c.name, group, release: release || null });
                        setText('');
                        setQ('');
                      }}
                    >
                      <strong>{c.code}</strong> {c.name}
                      {c.classGroup && (
                        <span className="muted class-group">
                          {t('class.inGroup', { group: classGroupLabel(c.classGroup) })}
                        </span>
                      )}
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t('class.noResults')}</p>
            )}
          </QueryState>
        )}
      </div>
    </div>
  );
}
