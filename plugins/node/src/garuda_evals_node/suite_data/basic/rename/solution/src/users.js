const users = new Map([
  [1, { id: 1, first: 'Ada', last: 'Marsh', nickname: null }],
  [2, { id: 2, first: 'Greta', last: 'Okafor', nickname: 'Amazing Greta' }],
  [3, { id: 3, first: 'Alan', last: 'Navarro', nickname: null }],
]);

export function findUser(id) {
  const user = users.get(id);
  if (!user) throw new Error(`no user ${id}`);
  return user;
}

/** The name to show for a user: the nickname when set, else "First Last". */
export function getUserName(id, { formal = false } = {}) {
  const user = findUser(id);
  if (formal || !user.nickname) return `${user.first} ${user.last}`;
  return user.nickname;
}

export function allUserIds() {
  return [...users.keys()];
}
