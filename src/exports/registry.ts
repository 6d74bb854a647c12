import type { Exporter } from './exporter';
import { bmecat2005 } from './bmecat/dialect-2005';
import { bmecatExporter } from './bmecat/bmecat-exporter';
import { csvExporter } from './csv';

/** Every export format by its `exportType`. New formats register here. */
export const EXPORTERS: Record<string, Exporter<any>> = {
  BMEcat: bmecatExporter(bmecat2005),
  [csvExporter.exportType]: csvExporter,
};

/** The format StartExport uses when neither the request nor the template names one (DESIGN section 6). */
export const DEFAULT_EXPORT_TYPE = 'BMEcat';
