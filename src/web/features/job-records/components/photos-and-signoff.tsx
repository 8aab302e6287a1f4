import { ActionIcon, Anchor, Box, Button, FileButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { IconCamera, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import SignaturePad from 'signature_pad';
import { MAX_UPLOAD_BYTES } from '#shared/constants';
import { formatDateTime } from '../../../components/date-text';
import { JOB_PHOTO_STAGES, type JobPhotoStage, type JobRecordView } from '#shared/schemas/job-records';
import { readAsDataUrl } from '../../../lib/files';
import { shrinkPhoto } from '../../../lib/shrink-photo';
import { toast } from '../../../lib/toast';
import type { useRecordChanges } from '../api/record';

type Changes = ReturnType<typeof useRecordChanges>;
interface SectionProps {
  record: JobRecordView;
  changes: Changes;
  closed: boolean;
}

const STAGE_LABEL: Record<JobPhotoStage, string> = { before: 'Before', after: 'After' };

/** Shown for a saved photo this phone cannot load now (no signal): a grey tile with a camera. */
const OFFLINE_TILE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 88 88"><rect width="88" height="88" fill="#e9ecef"/><path d="M30 36h6l3-4h10l3 4h6v22H30z" fill="none" stroke="#868e96" stroke-width="3"/><circle cx="44" cy="46" r="6" fill="none" stroke="#868e96" stroke-width="3"/></svg>',
)}`;

/** Before and after photos, from the camera or the library, shrunk on the phone and kept until sent. */
export function PhotosSection({ record, changes, closed, fetchedAt }: SectionProps & { fetchedAt: number }) {
  const [preparing, setPreparing] = useState<JobPhotoStage | null>(null);
  const add = async (stage: JobPhotoStage, files: File[]) => {
    setPreparing(stage);
    try {
      // One at a time: a phone holds one decoded photo in memory, not ten.
      for (const file of files) {
        const small = await shrinkPhoto(file);
        if (small.size > MAX_UPLOAD_BYTES) {
          toast.error(`${file.name} is too large to send`);
          continue;
        }
        await changes.putPhoto(crypto.randomUUID(), stage, await readAsDataUrl(small));
      }
    } finally {
      setPreparing(null);
    }
  };
  return (
    <Stack gap="md">
      {JOB_PHOTO_STAGES.map((stage) => {
        const photos = record.photos.filter((p) => p.stage === stage);
        return (
          <Stack gap={6} key={stage}>
            <Group justify="space-between">
              <Text fw={600}>{STAGE_LABEL[stage]}</Text>
              {closed ? null : (
                <FileButton
                  multiple
                  accept="image/jpeg,image/png,image/webp"
                  onChange={(files) => void add(stage, files)}
                  inputProps={{ 'aria-label': `Add ${stage} photos` } as never}
                >
                  {(props) => (
                    <Button
                      {...props}
                      variant="light"
                      size="sm"
                      leftSection={<IconCamera size={16} />}
                      loading={preparing === stage}
                    >
                      Add {stage} photos
                    </Button>
                  )}
                </FileButton>
              )}
            </Group>
            {photos.length === 0 ? (
              <Text size="sm" c="dimmed">
                No {stage} photos yet.
              </Text>
            ) : (
              <Group
                gap={8}
                component="ul"
                aria-label={`${STAGE_LABEL[stage]} photos`}
                style={{ listStyle: 'none', padding: 0, margin: 0 }}
              >
                {photos.map((photo, i) => (
                  <Box component="li" key={photo._id} pos="relative">
                    <Anchor href={photo.url} target="_blank" rel="noreferrer" display="block">
                      <Image
                        // Drawn again after each fetch: a photo that could not load without signal loads now.
                        key={fetchedAt}
                        src={photo.thumbnailUrl}
                        fallbackSrc={OFFLINE_TILE}
                        alt={`${STAGE_LABEL[stage]} photo ${i + 1}`}
                        w={88}
                        h={88}
                        radius="sm"
                        fit="cover"
                      />
                    </Anchor>
                    {closed ? null : (
                      <ActionIcon
                        pos="absolute"
                        top={2}
                        right={2}
                        size="sm"
                        color="red"
                        aria-label={`Remove ${stage} photo ${i + 1}`}
                        onClick={() => void changes.removePhoto(photo._id)}
                      >
                        <IconTrash size={14} />
                      </ActionIcon>
                    )}
                  </Box>
                ))}
              </Group>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}

/** The client signs on the screen with their finger and prints their name. */
export function SignoffSection({ record, changes, closed }: SectionProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [name, setName] = useState('');
  const [drawn, setDrawn] = useState(false);
  const [signing, setSigning] = useState(record.signature === null);

  useEffect(() => {
    const element = canvas.current;
    if (!element || !signing || closed) return;
    // Sharp lines on a sharp screen: the canvas is drawn at the device's pixel ratio.
    const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), 3);
    element.width = element.offsetWidth * ratio;
    element.height = element.offsetHeight * ratio;
    element.getContext('2d')!.scale(ratio, ratio);
    const signature = new SignaturePad(element, { penColor: '#10223f' });
    signature.addEventListener('endStroke', () => setDrawn(!signature.isEmpty()));
    pad.current = signature;
    return () => {
      signature.off();
      pad.current = null;
    };
  }, [signing, closed]);

  if (record.signature && !signing)
    return (
      <Stack gap="xs">
        <Image
          src={record.signature.imageUrl}
          alt={`Signature of ${record.signature.name}`}
          maw={320}
          bg="white"
          radius="sm"
        />
        <Text size="sm">
          Signed by {record.signature.name} on {formatDateTime(record.signature.signedAt)}
        </Text>
        {closed ? null : (
          <Group>
            <Button variant="subtle" size="xs" onClick={() => setSigning(true)}>
              Sign again
            </Button>
          </Group>
        )}
      </Stack>
    );
  if (closed)
    return (
      <Text size="sm" c="dimmed">
        Not signed.
      </Text>
    );
  return (
    <Stack gap="xs">
      <Text size="sm" id="signature-label">
        Ask the client to sign below with a finger.
      </Text>
      <canvas
        ref={canvas}
        role="img"
        aria-labelledby="signature-label"
        data-testid="signature-pad"
        style={{
          width: '100%',
          height: 180,
          border: '1px solid var(--mantine-color-gray-4)',
          borderRadius: 8,
          background: '#fff',
          touchAction: 'none',
        }}
      />
      <TextInput
        label="Client's printed name"
        value={name}
        maxLength={120}
        onChange={(e) => setName(e.currentTarget.value)}
      />
      <Group gap="xs">
        <Button
          variant="default"
          onClick={() => {
            pad.current?.clear();
            setDrawn(false);
          }}
        >
          Clear
        </Button>
        <Button
          disabled={!drawn || !name.trim()}
          onClick={() => {
            const image = pad.current?.toDataURL('image/png');
            if (!image) return;
            void changes.sign(name.trim(), image);
            setSigning(false);
          }}
        >
          Save signature
        </Button>
      </Group>
    </Stack>
  );
}
