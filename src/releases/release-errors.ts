import { AppError } from '../kernel/app-error';

/**
 * A release file that cannot be loaded: names the file, the line and the reason. The load job
 * fails with this message and the release being loaded is thrown away (docs/classification-releases.md).
 */
export class ReleaseFileError extends AppError {
  constructor(fileName: string, line: number, reason: string) {
    super('bad_request', line > 0 ? `${fileName} line ${line}: ${reason}` : `${fileName}: ${reason}`);
  }
}
