import { apiResponse, failureOf } from './api-client';

/** Saves bytes made in the page (a fetched file, a template) as a download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name the server gave (Content-Disposition), if any. */
function serverFilename(response: Response): string | undefined {
  return /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
}

/**
 * Downloads a file the API serves to staff (a link cannot send the bearer token): fetched, then saved
 * under the name the server gave it, else `filename`.
 */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const response = await apiResponse('GET', path, { headers: { accept: '*/*' } });
  // The server's own words when it gave some (two full exports already downloading: try again later).
  if (!response.ok) throw await failureOf(response, `The download failed (${response.status})`);
  saveBlob(await response.blob(), serverFilename(response) ?? filename);
}
