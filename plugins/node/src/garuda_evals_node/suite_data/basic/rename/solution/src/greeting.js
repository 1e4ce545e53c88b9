import { getUserName } from './users.js';

export function greet(id, hour) {
  const part = hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening';
  return `Good ${part}, ${getUserName(id)}!`;
}

export function formalGreeting(id) {
  return `Dear ${getUserName(id, { formal: true })},`;
}
