/** BMEcat MIME_PURPOSE values: the purposes of media, media links and category pictures (the web app offers the same). */
export const MEDIA_PURPOSES = [
  'normal',
  'thumbnail',
  'detail',
  'data_sheet',
  'logo',
  'safety_data_sheet',
  'others',
] as const;
