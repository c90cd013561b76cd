#ifndef CSPAWN_H
#define CSPAWN_H

#include <spawn.h>

/// posix_spawn_file_actions_addchdir_np (glibc 2.29+), which Swift's Glibc module does not show.
int cspawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34+): close every descriptor from `from` on.
int cspawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

/// pipe2(ends, O_CLOEXEC): a pipe whose ends the child inherits only through dup2.
int cspawn_cloexec_pipe(int ends[2]);

#endif
