/**
 * regheads core: contracts and the engine. Sub-packages: {@code head}, {@code loss}, {@code dist}, {@code token}
 * (contracts); {@code nn} (layers), {@code optim}, {@code train}, {@code data}, {@code metrics}, {@code io}
 * (engine). Argument errors read "name must be rule, got value". {@code io.regheads.core.internal} holds helpers
 * shared between the library modules; it is not API and may change in any release.
 */
package io.regheads.core;
