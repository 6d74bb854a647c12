import { useState, type DragEvent } from 'react';
import { useI18n } from '../../i18n/i18n';

/**
 * Where a supplier file goes in: dropped onto the zone, or chosen with the file button (a real
 * `<input type="file">` inside its label, so keyboard and screen readers reach it as usual).
 */
export function DropZone({ onFile, disabled }: { onFile: (file: File) => void; disabled?: boolean }) {
  const { t } = useI18n();
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };
  return (
    <fieldset
      className={over ? 'dropzone over' : 'dropzone'}
      disabled={disabled}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setOver(true);
        }
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <legend>{t('imports.drop')}</legend>
      <div className="row">
        <span className="muted">{t('imports.or')}</span>
        <label className="file-button">
          <span>{t('imports.choose')}</span>
          <input
            type="file"
            accept=".xml,.bmecat,.csv,text/xml,application/xml,text/csv"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) onFile(file);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      <p className="muted">{t('imports.intro')}</p>
    </fieldset>
  );
}
