import { Anchor, Group, Image } from '@mantine/core';
import type { RequestPhoto } from '#shared/schemas/staff-quote-requests';

/** A client's photos as small thumbnails, each opening the full photo: what the crew glances at. */
export function PhotoThumbnails({ photos }: { photos: RequestPhoto[] }) {
  if (photos.length === 0) return null;
  return (
    <Group
      gap={6}
      mt={4}
      component="ul"
      aria-label="Client's photos"
      style={{ listStyle: 'none', padding: 0, marginBottom: 0 }}
    >
      {photos.map((photo, i) => (
        <li key={photo._id}>
          <Anchor href={photo.url} target="_blank" rel="noreferrer" display="block">
            <Image
              src={photo.thumbnailUrl}
              alt={`Photo ${i + 1} of ${photos.length}`}
              w={64}
              h={64}
              radius="sm"
              fit="cover"
            />
          </Anchor>
        </li>
      ))}
    </Group>
  );
}
