import { Box, Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { MAX_UPLOAD_BYTES } from '#shared/constants';
import { messages } from '#shared/messages';
import { SectionCard } from '../../../components/section-card';
import { hasErrorCode } from '../../../lib/api-client';
import { readAsDataUrl } from '../../../lib/files';
import { toast } from '../../../lib/toast';
import { useRemoveLogo, useSetLogo } from '../api/settings';

const LOGO_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

/** Settings → Logo: uploaded and removed on its own, outside the form's Save. */
export function LogoSection({ logoUrl, businessName }: { logoUrl: string | null; businessName: string }) {
  const setLogo = useSetLogo();
  const removeLogo = useRemoveLogo();
  const busy = setLogo.isPending || removeLogo.isPending;

  const upload = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      toast.error(messages.filesTooLarge);
      return;
    }
    try {
      await setLogo.mutateAsync(await readAsDataUrl(file));
      toast.success(messages.logoSaved);
    } catch (error) {
      toast.error(
        hasErrorCode(error, 'INVALID_IMAGE', 'IMAGE_TOO_LARGE', 'FILES_TOO_LARGE') ? error.message : messages.logoError,
      );
    }
  };
  const remove = async () => {
    try {
      await removeLogo.mutateAsync();
      toast.success(messages.logoRemoved);
    } catch {
      toast.error(messages.logoError);
    }
  };

  return (
    <SectionCard title="Logo">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Shown in the site's header and on quote PDFs. A JPEG, PNG, WebP or GIF picture up to 3 MB; a wide logo on a
          transparent background looks best.
        </Text>
        <Box
          p="md"
          style={{ border: '1px dashed var(--mantine-color-gray-4)', borderRadius: 12, minHeight: 96 }}
          aria-live="polite"
        >
          {logoUrl ? (
            <Image src={logoUrl} alt={`${businessName} logo`} h={64} w="auto" fit="contain" maw="100%" />
          ) : (
            <Text size="sm" c="dimmed">
              No logo yet: the site shows the business name with the standard mark.
            </Text>
          )}
        </Box>
        <Group gap="sm">
          <FileButton onChange={(file) => void upload(file)} accept={LOGO_TYPES}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconPhotoUp size={18} aria-hidden />}
                loading={setLogo.isPending}
                disabled={busy}
              >
                {logoUrl ? 'Replace logo' : 'Upload logo'}
              </Button>
            )}
          </FileButton>
          {logoUrl ? (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={() => void remove()}
              loading={removeLogo.isPending}
              disabled={busy}
            >
              Remove logo
            </Button>
          ) : null}
        </Group>
      </Stack>
    </SectionCard>
  );
}
