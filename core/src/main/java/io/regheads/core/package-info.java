/**
 * regheads core: contracts and shared helpers. {@link io.regheads.core.Checks} builds every argument error
 * ("name must be rule, got value"). Sub-packages: {@code head}, {@code loss}, {@code dist}, {@code token}
 * (contracts); {@code nn} (layers), {@code optim}, {@code train}, {@code data}, {@code metrics}, {@code io}
 * (engine).
 */
package io.regheads.core;
