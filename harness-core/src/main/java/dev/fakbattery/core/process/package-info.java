/**
 * Server processes the harness starts from command templates ({@code gateway.cmd}, {@code engine.cmd}):
 * {@link dev.fakbattery.core.process.ManagedProcess} starts, logs, health-checks and stops them.
 *
 * @since 0.2
 */
package dev.fakbattery.core.process;
