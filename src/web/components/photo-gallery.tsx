import { ActionIcon, Box, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import type { RequestPhoto } from '#shared/schemas/staff-quote-requests';
import classes from './photo-gallery.module.css';

/** The client's photos: one large, arrows to move, thumbnails below (the request and the job pages). */
export function PhotoGallery({ images }: { images: RequestPhoto[] }) {
  const [index, setIndex] = useState(0);
  if (images.length === 0) return <Text c="dimmed">No images provided</Text>;
  const current = images[Math.min(index, images.length - 1)]!;
  const go = (delta: number) => setIndex((i) => (i + delta + images.length) % images.length);
  return (
    <Box>
      <Box className={classes.stage}>
        <a href={current.url} target="_blank" rel="noreferrer" aria-label={`Open Image ${index + 1} in full size`}>
          <img src={current.url} alt={`Image ${index + 1}`} className={classes.main} />
        </a>
        {images.length > 1 ? (
          <>
            <ActionIcon
              className={classes.prev}
              variant="filled"
              color="dark"
              radius="xl"
              size="lg"
              onClick={() => go(-1)}
              aria-label="Previous image"
            >
              <IconChevronLeft aria-hidden />
            </ActionIcon>
            <ActionIcon
              className={classes.next}
              variant="filled"
              color="dark"
              radius="xl"
              size="lg"
              onClick={() => go(1)}
              aria-label="Next image"
            >
              <IconChevronRight aria-hidden />
            </ActionIcon>
          </>
        ) : null}
        <Text className={classes.label} size="sm">
          Image {index + 1}
        </Text>
      </Box>
      <Group gap="xs" mt="sm" component="ul" aria-label="Thumbnails" className={classes.thumbs}>
        {images.map((image, i) => (
          <li key={image._id}>
            <UnstyledButton
              onClick={() => setIndex(i)}
              aria-label={`Show Image ${i + 1}`}
              aria-current={i === index || undefined}
              className={classes.thumbButton}
            >
              <Image src={image.thumbnailUrl} alt="" w={72} h={72} radius="sm" fit="cover" />
            </UnstyledButton>
          </li>
        ))}
      </Group>
    </Box>
  );
}
