import { ApiError, tokenStore } from './api-client';

/** Downloads a file the API serves to staff (a link cannot send the bearer token): fetched, then saved. */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const token = tokenStore.get();
  const response = await fetch(`/api${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new ApiError(response.status, `The download failed (${response.status})`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
