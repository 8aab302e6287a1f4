import { Box, CloseButton, CloseIcon, Button, FileButton, Group, Image, Input, Text } from '@mantine/core';
import { IconPhotoPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { MAX_REQUEST_PHOTOS, MAX_UPLOAD_BYTES } from '#shared/constants';
import { messages } from '#shared/messages';
import { formatBytes } from '../../../lib/files';
import classes from './photo-picker.module.css';
import layout from '../../../components/layout.module.css';

interface PhotoPickerProps {
  files: File[];
  error: string | undefined;
  onChange: (files: File[], error?: string) => void;
  disabled?: boolean;
  /** While chosen photos are being shrunk (the form waits for them before sending). */
  onPreparing?: (preparing: boolean) => void;
}

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

/**
 * "Upload Images": pick several photos (in one go or a few at a time), see them as thumbnails,
 * remove one. Each photo is shrunk in the browser first (shrink-photo.ts); the 3 MB rule applies to
 * what is sent. Photos already chosen stay; only those that would go over 3 MB are refused, with the
 * spec's message.
 */
export function PhotoPicker({ files, error, onChange, disabled, onPreparing }: PhotoPickerProps) {
  const [preparing, setPreparing] = useState(0);
  const previews = useMemo(() => files.map((file) => ({ file, url: URL.createObjectURL(file) })), [files]);
  useEffect(() => () => previews.forEach((p) => URL.revokeObjectURL(p.url)), [previews]);
  const total = files.reduce((sum, f) => sum + f.size, 0);

  const add = async (picked: File[]) => {
    if (picked.length === 0) return;
    setPreparing(picked.length);
    onPreparing?.(true);
    try {
      const kept = [...files];
      let sum = total;
      let refused = 0;
      // Loaded when the first photo is picked: a visitor who sends none never downloads it (issue 34).
      const { shrinkPhoto } = await import('../../../lib/shrink-photo');
      // The server takes at most MAX_REQUEST_PHOTOS: the ones past it are not even shrunk.
      const room = Math.max(0, MAX_REQUEST_PHOTOS - files.length);
      const tooMany = picked.length > room;
      // One at a time: a phone holds one decoded 12-megapixel photo in memory, not ten.
      for (const file of picked.slice(0, room)) {
        const small = await shrinkPhoto(file);
        if (sum + small.size > MAX_UPLOAD_BYTES) refused++;
        else {
          kept.push(small);
          sum += small.size;
        }
      }
      const problems = [tooMany ? messages.tooManyPhotos : null, refused > 0 ? messages.filesTooLarge : null].filter(
        Boolean,
      );
      onChange(kept, problems.length ? problems.join(' ') : undefined);
    } finally {
      setPreparing(0);
      onPreparing?.(false);
    }
  };

  return (
    <Input.Wrapper
      label="Upload Images"
      description={`Optional. Photos of the job help us quote faster: JPEG, PNG, WebP or GIF, up to ${MAX_REQUEST_PHOTOS} photos and ${formatBytes(MAX_UPLOAD_BYTES)} in total.`}
      error={error}
      id="photos"
      // A heading for the group, not a <label>: the file input is hidden and named by its own aria-label.
      labelElement="div"
    >
      <Box mt={6}>
        <FileButton
          onChange={(picked) => void add(picked)}
          accept={ACCEPT}
          multiple
          disabled={disabled || preparing > 0}
          inputProps={{ 'aria-label': 'Upload Images', name: 'images' } as never}
        >
          {(props) => (
            <Button
              {...props}
              disabled={disabled || preparing > 0}
              loading={preparing > 0}
              variant="light"
              leftSection={<IconPhotoPlus size={18} aria-hidden />}
              aria-describedby="photos-description"
            >
              {files.length > 0 ? 'Add more photos' : 'Choose photos'}
            </Button>
          )}
        </FileButton>
        {files.length > 0 ? (
          <>
            <Box
              component="ul"
              mt="sm"
              className={`${layout.grid} ${layout.grid34} ${classes.list}`}
              aria-label="Chosen photos"
            >
              {previews.map(({ file, url }, i) => (
                <Box component="li" key={url} className={classes.item}>
                  <Image src={url} alt={`Photo ${i + 1}: ${file.name}`} className={classes.thumb} radius="md" />
                  <CloseButton
                    className={classes.remove}
                    radius="xl"
                    size="md"
                    iconSize={16}
                    // Its cross is decoration: the button's name says what it does.
                    icon={<CloseIcon aria-hidden />}
                    aria-label={`Remove photo ${i + 1} (${file.name})`}
                    onClick={() => onChange(files.filter((_, j) => j !== i))}
                    disabled={disabled}
                  />
                </Box>
              ))}
            </Box>
            <Group justify="space-between" mt={6}>
              <Text size="xs" c="dimmed">
                {files.length} of {MAX_REQUEST_PHOTOS} photos, {formatBytes(total)} of {formatBytes(MAX_UPLOAD_BYTES)}
              </Text>
            </Group>
          </>
        ) : null}
      </Box>
    </Input.Wrapper>
  );
}
