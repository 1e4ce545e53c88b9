import { allUserIds, getUsrNm } from './users.js';

/** One line per user, sorted by the shown name. */
export function userReport() {
  return allUserIds()
    .map((id) => ({ id, name: getUsrNm(id) }))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ id, name }) => `#${id} ${name}`)
    .join('\n');
}
