package dev.fakbattery.api.process;

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
				"   4: 0100007F:01F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 0 1 0 100 0 0 10 0"));
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
			assertThat(other.others()).contains("pid " + me);
		}
		assertThat(PortListeners.of(ManagedProcess.freePort(), Set.of(me)).owner()).isEqualTo(PortListeners.Owner.NONE);
	}
}
