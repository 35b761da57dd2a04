// Pure helpers for the asset prompts: creators, previews, social links, names. No vscode import, so plain unit
// tests cover them.
import { basename, extname } from 'node:path';
import { assetTypesFor, MEDIA_TYPES, type Creator } from '../api';
import { t } from '../core/text';

export const MAX_NAME = 50;
export const MAX_DESCRIPTION = 1000;
export const MAX_PREVIEWS = 10;

/** ".png, .jpg, …": the file types an upload takes, for messages. */
export function supportedTypes(): string {
  return Object.keys(MEDIA_TYPES)
    .map((e) => `.${e}`)
    .join(', ');
}

/** ".png, .jpg, …" that an asset of this type takes as content. */
export function extensionsFor(assetType: string): string[] {
  return Object.keys(MEDIA_TYPES).filter((e) => assetTypesFor(`f.${e}`).includes(assetType as never));
}

/** Reads "2205400862" or "assets/2205400862". */
export function parseAssetId(text: string): string {
  const match = /^(?:assets\/)?([1-9]\d{0,18})$/.exec(text.trim());
  if (!match) throw new Error(t`Enter an asset id, e.g. 2205400862.`);
  return match[1];
}

/** The default display name of a file: its name without the extension, cut to the service's limit. */
export function defaultName(fileName: string): string {
  const base = basename(fileName);
  return [...base.slice(0, base.length - extname(base).length)].slice(0, MAX_NAME).join('');
}

export function checkName(text: string): string | undefined {
  if (!text.trim()) return t`Enter a name.`;
  if ([...text].length > MAX_NAME) return t`A name has at most ${MAX_NAME} characters.`;
  return undefined;
}

export function checkDescription(text: string): string | undefined {
  return [...text].length > MAX_DESCRIPTION ? t`A description has at most ${MAX_DESCRIPTION} characters.` : undefined;
}

/** Reads "1001" or "user 1001" (a user) and "group 55" (a group). */
export function parseCreator(text: string): Creator {
  const match = /^(?:(user|group)\s*:?\s*)?(\d{1,19})$/i.exec(text.trim());
  if (!match || /^0+$/.test(match[2])) throw new Error(t`Enter a user id (e.g. 1001) or "group <id>" (e.g. group 55).`);
  return match[1]?.toLowerCase() === 'group' ? { groupId: match[2] } : { userId: match[2] };
}

/** "user 1001" or "group 55": the form parseCreator reads back, so it stays English. */
export function formatCreator(creator: Creator | undefined): string {
  if (creator?.groupId !== undefined) return `group ${creator.groupId}`;
  if (creator?.userId !== undefined) return `user ${creator.userId}`;
  return '';
}

export interface Preview {
  asset: string;
  altText?: string;
}

/** Reads "123 = Front view; 456" into previews; empty text is no previews. */
export function parsePreviews(text: string): Preview[] {
  const parts = text
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length > MAX_PREVIEWS) throw new Error(t`An asset has at most ${MAX_PREVIEWS} previews.`);
  return parts.map((part) => {
    const match = /^(?:assets\/)?(\d{1,19})\s*(?:=\s*(.*))?$/.exec(part);
    if (!match) throw new Error(t`"${part}" is not an image asset id (a number, optionally "= alt text").`);
    const altText = match[2]?.trim();
    return altText ? { asset: `assets/${match[1]}`, altText } : { asset: `assets/${match[1]}` };
  });
}

export function formatPreviews(previews: readonly Preview[] | undefined): string {
  return (previews ?? [])
    .map((p) => {
      const id = p.asset.replace(/^assets\//, '');
      return p.altText ? `${id} = ${p.altText}` : id;
    })
    .join('; ');
}

/** The social links the editor offers, with the hosts their address must be on. */
export const SOCIAL_LINKS = [
  { field: 'twitchSocialLink', name: 'Twitch', hosts: ['twitch.tv', 'www.twitch.tv', 'm.twitch.tv'] },
  { field: 'githubSocialLink', name: 'GitHub', hosts: ['github.com', 'www.github.com'] },
] as const;

export type SocialLinkKind = (typeof SOCIAL_LINKS)[number];

/** A message for an input box, or undefined when the address may be this link's (empty removes the link). */
export function checkSocialUri(kind: SocialLinkKind, text: string): string | undefined {
  if (!text.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return t`Enter a full address, e.g. https://${kind.hosts[0]}/name`;
  }
  if (url.protocol !== 'https:') return t`Use an https:// address.`;
  if (!(kind.hosts as readonly string[]).includes(url.hostname.toLowerCase()))
    return t`A ${kind.name} link is on ${kind.hosts[0]}.`;
  if (url.username || url.password) return t`Leave credentials out of the address.`;
  return undefined;
}
