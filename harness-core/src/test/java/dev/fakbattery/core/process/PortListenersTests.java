package dev.fakbattery.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("PortListeners: who holds the listening sockets on a port")
class PortListenersTests {

	@TempDir
	Path dir;

	@Test
	@DisplayName("a /proc/net/tcp table: only LISTEN rows (0A) on the port, any address, with an inode")
	void readsListeningRowsOfThePort() throws Exception {
		Path table = dir.resolve("tcp");
		Files.writeString(table, String.join("\n",
				"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
				"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0 100 0 0 10 0",
				"   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 222 1 0 100 0 0 10 0",
				"   2: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 333 1 0 100 0 0 10 0",
				"   3: 0100007F:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 444 1 0 100 0 0 10 0",
				"   4: 0100007F:01F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 0 1 0 100 0 0 10 0",
				"   5: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0",
				"   6: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 0 1 0 100 0 0 10 0"));
		assertThat(PortListeners.listeningInodes(table, 8080)).containsExactlyInAnyOrder("socket:[111]", "socket:[222]");
		assertThat(PortListeners.listeningInodes(dir.resolve("absent"), 8080)).isEmpty();
	}

	@Test
	@DisplayName("this JVM's own server is STARTED for this JVM and OTHER for anyone else; a closed port is NONE")
	void ownerOfALivePort() {
		long me = ProcessHandle.current().pid();
		try (Squatter server = Squatter.on(ManagedProcess.freePort())) {
			assertThat(PortListeners.of(server.port(), Set.of(me)).owner()).isEqualTo(PortListeners.Owner.STARTED);
			PortListeners.Finding other = PortListeners.of(server.port(), Set.of(me + 1_000_000));
			assertThat(other.owner()).isEqualTo(PortListeners.Owner.OTHER);
			assertThat(other.others()).contains("pid " + me + " (").contains("java");
		}
		assertThat(PortListeners.of(ManagedProcess.freePort(), Set.of(me)).owner()).isEqualTo(PortListeners.Owner.NONE);
	}

	@Test
	@DisplayName("a /proc tree: the started pids' descriptors decide STARTED; another holder is named; an unseen holder is said so")
	void fakeProc() throws Exception {
		Path proc = dir.resolve("proc");
		Files.createDirectories(proc.resolve("net"));
		Files.writeString(proc.resolve("net/tcp"), String.join("\n", "  sl  local_address rem_address   st",
				"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0 100 0 0 10 0"));
		Files.writeString(proc.resolve("net/tcp6"), String.join("\n", "  sl  local_address rem_address   st",
				"   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 "
						+ "00:00000000 00000000     0        0 222 1 0 100 0 0 10 0"));
		holds(proc, 10, "socket:[111]", "socket:[999]");
		holds(proc, 11, "socket:[222]");
		Files.createDirectories(proc.resolve("self"));
		assertThat(PortListeners.of(8080, Set.of(10L, 11L), proc, "lsof").owner()).isEqualTo(PortListeners.Owner.STARTED);
		assertThat(PortListeners.of(8081, Set.of(10L, 11L), proc, "lsof").owner()).isEqualTo(PortListeners.Owner.NONE);
		PortListeners.Finding half = PortListeners.of(8080, Set.of(10L), proc, "lsof");
		assertThat(half.owner()).isEqualTo(PortListeners.Owner.OTHER);
		assertThat(half.others()).isEqualTo(PortListeners.describe(11));
		// a socket no readable process holds: someone this user cannot see
		Files.delete(proc.resolve("11/fd/0"));
		PortListeners.Finding unseen = PortListeners.of(8080, Set.of(10L), proc, "lsof");
		assertThat(unseen.owner()).isEqualTo(PortListeners.Owner.OTHER);
		assertThat(unseen.others()).isEqualTo("a process this user cannot see");
	}

	@Test
	@DisplayName("without /proc, lsof's pids decide: none NONE, all started STARTED, another OTHER; lsof failing or absent UNKNOWN")
	void lsofWithoutProc() throws Exception {
		Path noProc = dir.resolve("no-proc");
		assertThat(PortListeners.of(8080, Set.of(10L), noProc, lsof("exit 1")).owner()).isEqualTo(PortListeners.Owner.NONE);
		assertThat(PortListeners.of(8080, Set.of(10L, 11L), noProc, lsof("printf 'p10\\nf3\\np11\\n'")).owner())
				.isEqualTo(PortListeners.Owner.STARTED);
		PortListeners.Finding other = PortListeners.of(8080, Set.of(10L), noProc, lsof("printf 'p10\\np4194999\\n'"));
		assertThat(other.owner()).isEqualTo(PortListeners.Owner.OTHER);
		assertThat(other.others()).isEqualTo("pid 4194999");
		assertThat(PortListeners.of(8080, Set.of(10L), noProc, lsof("echo 'lsof: bad option'; exit 2")).owner())
				.isEqualTo(PortListeners.Owner.UNKNOWN);
		assertThat(PortListeners.of(8080, Set.of(10L), noProc, dir.resolve("absent-lsof").toString()).owner())
				.isEqualTo(PortListeners.Owner.UNKNOWN);
		String args = lsof("echo \"p$$ $*\" > " + dir.resolve("args") + "; exit 1");
		PortListeners.of(8080, Set.of(10L), noProc, args);
		assertThat(Files.readString(dir.resolve("args"))).contains("-nP -iTCP:8080 -sTCP:LISTEN -Fp");
	}

	private static void holds(Path proc, long pid, String... sockets) throws Exception {
		Path fd = Files.createDirectories(proc.resolve(pid + "/fd"));
		for (int i = 0; i < sockets.length; i++) {
			Files.createSymbolicLink(fd.resolve(String.valueOf(i)), Path.of(sockets[i]));
		}
	}

	private String lsof(String body) throws Exception {
		Path script = dir.resolve("lsof-" + Integer.toHexString(body.hashCode()));
		Files.writeString(script, "#!/bin/sh\n" + body + "\n");
		script.toFile().setExecutable(true);
		return script.toString();
	}
}
