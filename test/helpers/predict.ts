// Predict requests in both body forms, for tests.
export type BodyForm = 'multipart' | 'json';
export const BODY_FORMS: readonly BodyForm[] = ['multipart', 'json'];

export interface PredictResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function predict(
  baseUrl: string,
  versionId: string,
  image: Uint8Array,
  options: { form?: BodyForm; key?: string | null; query?: string; filename?: string } = {},
): Promise<PredictResponse> {
  const headers: Record<string, string> = {};
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? 'test-key'}`;
  let body: FormData | string;
  if ((options.form ?? 'multipart') === 'multipart') {
    const form = new FormData();
    form.append('file', new Blob([image]), options.filename ?? 'image.bin');
    body = form;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ image: Buffer.from(image).toString('base64') });
  }
  const url = `${baseUrl}/v1/models/${versionId}/predict${options.query ? `?${options.query}` : ''}`;
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // leave as text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
