import { getUsrNm } from './users.js';

export function greet(id, hour) {
  const part = hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening';
  return `Good ${part}, ${getUsrNm(id)}!`;
}

export function formalGreeting(id) {
  return `Dear ${getUsrNm(id, { formal: true })},`;
}
