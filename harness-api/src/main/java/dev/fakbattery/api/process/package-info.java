/**
 * Server processes the harness starts from command templates ({@code gateway.cmd}, {@code engine.cmd}):
 * {@link dev.fakbattery.api.process.ManagedProcess} starts, logs, health-checks and stops them.
 *
 * @since 0.2
 */
package dev.fakbattery.api.process;
