import type { Exporter } from './exporter';
import { bmecat2005, bmecat2005Onto } from './bmecat/dialect-2005';
import { bmecatExporter } from './bmecat/bmecat-exporter';
import { bmecat12 } from './bmecat/dialect-12';
import { bmecatEtim } from './bmecat/dialect-etim';
import { csvExporter } from './csv/csv-exporter';
import { xchangeExporter } from './xchange/xchange-exporter';

/** Every export format by its `exportType`. New formats register here. */
export const EXPORTERS: Record<string, Exporter<any>> = {
  BMEcat: bmecatExporter(bmecat2005),
  'BMEcat-ETIM': bmecatExporter(bmecatEtim),
  BMEcat12: bmecatExporter(bmecat12),
  'BMEcat-2005onto': bmecatExporter(bmecat2005Onto),
  [csvExporter.exportType]: csvExporter,
  [xchangeExporter.exportType]: xchangeExporter,
};

/** The format StartExport uses when neither the request nor the template names one (docs/design.md section 6). */
export const DEFAULT_EXPORT_TYPE = 'BMEcat';
