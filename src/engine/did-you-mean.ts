// Moved to src/shared (EPP uses it too); kept as a re-export for the engine's imports.
export * from '../shared/did-you-mean.js';
