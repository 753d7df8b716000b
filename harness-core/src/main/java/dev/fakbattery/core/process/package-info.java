/**
 * Processes the harness starts. Server processes from command templates ({@code gateway.cmd}, {@code engine.cmd}):
 * {@link dev.fakbattery.core.process.ManagedProcess} starts, logs, health-checks and stops them. Commands run to
 * completion with their output captured (nvidia-smi, a floor binary): {@link dev.fakbattery.core.process.CommandRunner},
 * run by {@link dev.fakbattery.core.process.ProcessCommandRunner} into a
 * {@link dev.fakbattery.core.process.CommandResult}. Both stop a process and its children the same way. The JVMs a test
 * starts begin with {@link dev.fakbattery.core.process.ChildJava}: this JVM's {@code java} and the build's flags.
 *
 * @since 0.2
 */
package dev.fakbattery.core.process;
