package dev.fakbattery.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("Provenance: the git commit of a clone and of a worktree, never guessed")
class ProvenanceTests {

	@TempDir
	Path root;

	@Test
	@DisplayName("a worktree's .git file names its git dir; the branch's ref is in the common dir")
	void worktree() {
		ArtifactFiles.writeString(root.resolve("main/.git/worktrees/wt/HEAD"), "ref: refs/heads/helper/report\n");
		ArtifactFiles.writeString(root.resolve("main/.git/worktrees/wt/commondir"), "../..\n");
		ArtifactFiles.writeString(root.resolve("main/.git/refs/heads/helper/report"), "c1f4b18aa\n");
		ArtifactFiles.writeString(root.resolve("wt/.git"), "gitdir: " + root.resolve("main/.git/worktrees/wt") + "\n");
		assertThat(Provenance.gitCommit(root.resolve("wt"))).hasValue("c1f4b18aa");
	}

	@Test
	@DisplayName("a clone's packed ref; nothing when there is no git checkout")
	void packedAndNone() {
		ArtifactFiles.writeString(root.resolve("clone/.git/HEAD"), "ref: refs/heads/main\n");
		ArtifactFiles.writeString(root.resolve("clone/.git/packed-refs"), "# pack-refs\n8d005c5 refs/heads/main\n");
		assertThat(Provenance.gitCommit(root.resolve("clone"))).hasValue("8d005c5");
		assertThat(Provenance.gitCommit(root.resolve("nothing"))).isEmpty();
	}
}
