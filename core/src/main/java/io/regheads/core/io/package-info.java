/**
 * Saving and loading trained models: {@link io.regheads.core.io.Checkpoint} (versioned binary format with a
 * CRC32 checksum; truncated or corrupt files raise a clear {@code IllegalArgumentException}).
 */
package io.regheads.core.io;
