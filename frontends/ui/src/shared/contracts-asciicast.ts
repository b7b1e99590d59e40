/** `@termpaste/contracts/asciicast`, shared apart: only a terminal recording's page reads it. */
export * from '../../../../contracts/dist/asciicast.js';
