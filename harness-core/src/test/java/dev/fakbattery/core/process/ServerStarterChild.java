package dev.fakbattery.core.process;

import java.nio.file.Path;
import java.util.List;

/**
 * The child JVM of {@link ManagedProcessShutdownTests}: starts {@code nice -n 10 sleep 300; true} under
 * {@code /bin/sh -c} (a wrapper with the server under it, as a {@code gateway.cmd} with {@code nice} is), prints
 * {@code started PID} with the sleeping grandchild's pid, and waits to be killed. {@code managed} starts it as a
 * {@link ManagedProcess}; {@code bare} with a plain {@link ProcessBuilder}, as a launcher without the hook would.
 */
public final class ServerStarterChild {

	private ServerStarterChild() {
	}

	public static void main(String[] args) throws Exception {
		String command = "nice -n 10 sleep 300; true";
		Process wrapper;
		if (args[0].equals("managed")) {
			ManagedProcess.start("test.cmd", command, Path.of(args[1]));
			wrapper = null;
		}
		else {
			wrapper = new ProcessBuilder(List.of("/bin/sh", "-c", command)).start();
		}
		long deadline = System.nanoTime() + 20_000_000_000L;
		while (System.nanoTime() < deadline) {
			var sleeper = (wrapper != null ? wrapper.descendants() : ProcessHandle.current().descendants())
					.filter(p -> p.info().command().map(c -> c.endsWith("sleep")).orElse(false))
					.findFirst();
			if (sleeper.isPresent()) {
				System.out.println("started " + sleeper.get().pid());
				System.out.flush();
				Thread.sleep(300_000);
				return;
			}
			Thread.sleep(50);
		}
		System.out.println("no sleeper");
	}
}
