export class InsufficientFunds extends Error {
  constructor(account, balance, amount) {
    super(`account ${account} has ${balance}, cannot send ${amount}`);
    this.name = 'InsufficientFunds';
  }
}

/** Opens an account with an initial balance. */
export async function open(store, account, balance = 0) {
  await store.set(account, balance);
}

/** Moves `amount` from one account to another; refuses when funds are short. */
export async function transfer(store, from, to, amount) {
  if (!(amount > 0)) throw new RangeError(`amount must be positive, got ${amount}`);
  const fromBalance = store.get(from);
  const toBalance = await store.get(to);
  if (fromBalance < amount) {
    throw new InsufficientFunds(from, fromBalance, amount);
  }
  await store.set(from, fromBalance - amount);
  store.set(to, toBalance + amount);
}

/** The sum of the balances of `accounts`. */
export async function total(store, accounts) {
  const balances = await Promise.all(accounts.map((account) => store.get(account)));
  return balances.reduce((sum, balance) => sum + balance, 0);
}
