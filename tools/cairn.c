/* cairn: the command-line tool. Each command's usage is printed by
 * `cairn help CMD` and `cairn CMD --help`; docs/cli.md is the reference. */
#include <stdio.h>
#include <string.h>

#include "cairn/core.h"
#include "cli.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *usage; /* its lines of the usage, indented as in the list */
} command;

static const command commands[] = {
    {"path", cmd_path,
     "  path   --map FILE --from X,Y --to X,Y [--algo astar|dijkstra|hpa|jps|jps+|auto]\n"
     "         [--heuristic octile|manhattan|euclidean|zero] [--weight W]\n"
     "         [--moves 8|4] [--turn-penalty P] [--smooth] [--draw] [--json]\n"
     "         [--size K] (a unit of K x K cells, 1..8; not with --smooth)\n"
     "         [--terrain C=COST ...] [--influence X,Y,RADIUS,PENALTY ...]\n"
     "         [--claims FILE [--claim-penalty P] [--claim-radius R]] [--threads N]\n"
     "         [--dead-ends on|off] (astar, jps, jps+, hpa, auto; default off)\n"
     "         hpa only: [--cluster N] [--nearby N] [--levels 2|3]\n"
     "         [--landmarks N] [--no-smooth] [--save-hierarchy FILE]\n"
     "         [--load-hierarchy FILE]\n"
     "         [--png FILE] (the map, the search's expanded nodes or clusters, the path)\n" },
    {"scen", cmd_scen,
     "  scen   FILE.scen [--map FILE.map] [--algo astar|dijkstra|hpa|jps|jps+|auto]\n"
     "         [--weight W] [--size K] (units of K x K cells: validity and cost,\n"
     "         not the optima)\n"
     "         [--json] [--csv FILE] [--threads N] hpa only: [--cluster N]\n"
     "         [--nearby N] [--levels 2|3] [--landmarks N] [--no-smooth]\n"
     "         [--save-hierarchy FILE] [--load-hierarchy FILE]\n"
     "         [--png FILE [--index I]] (row I, default 0, drawn)\n"
     "         [--dead-ends on|off] (astar, jps, jps+, hpa, auto; default on with auto)\n" },
    {"flow", cmd_flow,
     "  flow   --map FILE --to X,Y[;X,Y...] [--terrain C=COST ...] [--moves 8|4]\n"
     "         [--threads N] [--influence X,Y,RADIUS,PENALTY ...] [--json] [--check]\n"
     "         [--claims FILE [--claim-penalty P]] [--png FILE [--heat]]\n" },
    {"horde", cmd_horde,
     "  horde  [--map FILE] [--agents N] [--ticks T] [--threads N] [--seed S]\n"
     "         [--json] (the night of the dead: undead converge on the gates)\n"
     "         [--replay FILE] [--png FILE] [--frames DIR] [--gif FILE] [--every K]\n"
     "         [--density on|off] [--density-gain G] [--density-ticks K] (the fields\n"
     "         pay for crowding: on, 2 steps an agent a cell above 1, every 30 ticks)\n" },
    {"march", cmd_march,
     "  march  --map FILE --groups G --units N [--ticks T] [--threads N]\n"
     "         [--seed S] [--budget NODES] [--algo astar|hpa|auto] [--json] [--png FILE]\n"
     "         [--replay FILE [--every K]] [--path-cache]\n"
     "         (groups across a map; paths by A* or over a hierarchy; auto: the\n"
     "         crowd picks a group path, a shared field or a path each;\n"
     "         --path-cache: requests walk or join stored routes first)\n" },
    {"crowd-bench", cmd_crowd_bench,
     "  crowd-bench --scenario circle|crossing|bottleneck [--agents N] [--threads N]\n"
     "         [--ticks T] [--neighbours R] [--avoid orca|steer] [--horizon S]\n"
     "         [--orca-neighbours N] [--json] [--png FILE] (the standard\n"
     "         avoidance scenarios: ticks to 50/90/100 % arrived, overlap,\n"
     "         separation, speed, door flow)\n" },
    {"render", cmd_render,
     "  render --map FILE --png OUT.png [--px N] [--terrain C=COST ...]\n"
     "         [--influence X,Y,RADIUS,PENALTY ...] and at most one of:\n"
     "         --from X,Y --to X,Y [--algo astar|dijkstra|hpa] [--smooth]\n"
     "         --scen FILE [--index I] [--algo ...]   --flow X,Y[;X,Y...] [--heat]\n"
     "         plus [--clusters [--cluster N]] (a picture of the map and one result)\n"
     "         or --dead-ends alone (the dead-end areas tinted, one colour each)\n"
     "         or --crowd FILE.crowd alone (a saved crowd and its crowding)\n" },
    {"info", cmd_info,
     "  info   --map FILE [--terrain C=COST ...] [--json]\n" },
    {"gen", cmd_gen,
     "  gen    --out FILE.map [--kind outskirts|settlement] [--width W]\n"
     "         [--height H] [--seed S] (the demo map generators)\n"
     "  gen    --kind terrain --from MAP.map --out FILE.map [--seed S]\n"
     "         (a terrain variant: walls kept, roads and swamps of costs 1..8)\n"
     "  gen    --kind scen --map FILE.map --rows N --out FILE.scen [--seed S]\n"
     "         (a Moving AI scenario file, optimal costs from Dijkstra)\n" },
    {"suite", cmd_suite,
     "  suite  DIR [--algo astar,hpa,dijkstra,jps,jps+,auto] [--report FILE.md] [--json]\n"
     "         [--threads N] [--save-hierarchy DIR2] [--load-hierarchy DIR2]\n"
     "         (every .scen under DIR with each algorithm; a table or a report;\n"
     "         hierarchies saved to or loaded from DIR2/MAP.hpa)\n" },
};
#define N_COMMANDS (sizeof commands / sizeof *commands)

static const char notes[] =
    "--threads N: 1..256 threads for the parallel work (HPA* builds, flow fields,\n"
    "             crowd ticks); 1 = all on the calling thread; default every core\n"
    "--save-hierarchy FILE, --load-hierarchy FILE (--algo hpa): write the built\n"
    "             hierarchy to FILE, or read it instead of building (made for the\n"
    "             same map and --influence); preprocess_ms is then the load's time\n"
    "\n"
    "exit codes: 0 done (\"no path\" is an answer), 1 runtime failure,\n"
    "            2 usage error, 3 bad input file or coordinates\n";

static void print_usage(FILE *to) {
  fputs("usage: cairn COMMAND [OPTIONS]\n"
        "       cairn help [COMMAND]    cairn COMMAND --help    cairn --version\n"
        "\ncommands:\n", to);
  for (size_t i = 0; i < N_COMMANDS; i++) fputs(commands[i].usage, to);
  fputc('\n', to);
  fputs(notes, to);
}

static const command *find(const char *name) {
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

static int print_command_usage(const command *c) {
  printf("usage: cairn%s\n", c->usage + 1); /* "  path ..." -> "cairn path ..." */
  fputs(notes, stdout);
  return EXIT_DONE;
}

static bool wants_help(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
  return false;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
    /* the library's own answer: a shared one may be newer than the tool */
    printf("cairn %s (library %s)\n", CAIRN_VERSION_STRING, cairn_version());
    return EXIT_DONE;
  }
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    if (argc < 3) {
      print_usage(stdout);
      return EXIT_DONE;
    }
    const command *c = find(argv[2]);
    if (c) return print_command_usage(c);
    cli_error("help: unknown command '%s' (try cairn help)", argv[2]);
    return EXIT_USAGE;
  }
  const command *c = find(cmd);
  if (!c) {
    cli_error("unknown command '%s' (try cairn help)", cmd);
    return EXIT_USAGE;
  }
  if (wants_help(argc - 2, argv + 2)) return print_command_usage(c);
  return c->run(argc - 2, argv + 2);
}
