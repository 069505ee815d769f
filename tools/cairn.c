/* cairn: the command-line tool. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: cairn COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  path   --map FILE --from X,Y --to X,Y [--algo astar|dijkstra|hpa]\n"
    "         [--heuristic octile|manhattan|euclidean|zero] [--weight W]\n"
    "         [--moves 8|4] [--turn-penalty P] [--smooth] [--draw] [--json]\n"
    "         [--terrain C=COST ...] [--influence X,Y,RADIUS,PENALTY ...]\n"
    "         [--claims FILE [--claim-penalty P] [--claim-radius R]] [--threads N]\n"
    "         hpa only: [--cluster N] [--nearby N] [--levels 2|3]\n"
    "         [--landmarks N] [--no-smooth]\n"
    "         [--png FILE] (the map, the search's expanded nodes or clusters, the path)\n"
    "  scen   FILE.scen [--map FILE.map] [--algo astar|dijkstra|hpa] [--weight W]\n"
    "         [--json] [--csv FILE] [--threads N] hpa only: [--cluster N]\n"
    "         [--nearby N] [--levels 2|3] [--landmarks N] [--no-smooth]\n"
    "         [--png FILE [--index I]] (row I, default 0, drawn)\n"
    "  flow   --map FILE --to X,Y[;X,Y...] [--terrain C=COST ...] [--moves 8|4]\n"
    "         [--threads N] [--influence X,Y,RADIUS,PENALTY ...] [--json] [--check]\n"
    "         [--claims FILE [--claim-penalty P]] [--png FILE [--heat]]\n"
    "  horde  [--map FILE] [--agents N] [--ticks T] [--threads N] [--seed S]\n"
    "         [--json] (the night of the dead: undead converge on the gates)\n"
    "         [--replay FILE] [--png FILE] [--frames DIR] [--gif FILE] [--every K]\n"
    "  march  --map FILE --groups G --units N [--ticks T] [--threads N]\n"
    "         [--seed S] [--budget NODES] [--algo astar|hpa] [--json] [--png FILE]\n"
    "         (groups across a map; paths by A* or over a hierarchy)\n"
    "  render --map FILE --png OUT.png [--px N] [--terrain C=COST ...]\n"
    "         [--influence X,Y,RADIUS,PENALTY ...] and at most one of:\n"
    "         --from X,Y --to X,Y [--algo astar|dijkstra|hpa] [--smooth]\n"
    "         --scen FILE [--index I] [--algo ...]   --flow X,Y[;X,Y...] [--heat]\n"
    "         plus [--clusters [--cluster N]] (a picture of the map and one result)\n"
    "  info   --map FILE [--terrain C=COST ...] [--json]\n"
    "  gen    --out FILE.map [--kind outskirts|settlement] [--width W]\n"
    "         [--height H] [--seed S] (the demo map generators)\n"
    "  suite  DIR [--algo astar,hpa,dijkstra] [--report FILE.md] [--json]\n"
    "         [--threads N] (every .scen under DIR with each algorithm; a table\n"
    "         or a report)\n"
    "\n"
    "--threads N: 1..256 threads for the parallel work (HPA* builds, flow fields,\n"
    "             crowd ticks); 1 = all on the calling thread; default every core\n"
    "\n"
    "exit codes: 0 done (\"no path\" is an answer), 1 runtime failure,\n"
    "            2 usage error, 3 bad input file or coordinates\n";

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
      strcmp(argv[1], "help") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_USAGE : EXIT_DONE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "path") == 0) return cmd_path(argc - 2, argv + 2);
  if (strcmp(cmd, "scen") == 0) return cmd_scen(argc - 2, argv + 2);
  if (strcmp(cmd, "flow") == 0) return cmd_flow(argc - 2, argv + 2);
  if (strcmp(cmd, "horde") == 0) return cmd_horde(argc - 2, argv + 2);
  if (strcmp(cmd, "march") == 0) return cmd_march(argc - 2, argv + 2);
  if (strcmp(cmd, "info") == 0) return cmd_info(argc - 2, argv + 2);
  if (strcmp(cmd, "gen") == 0) return cmd_gen(argc - 2, argv + 2);
  if (strcmp(cmd, "suite") == 0) return cmd_suite(argc - 2, argv + 2);
  if (strcmp(cmd, "render") == 0) return cmd_render(argc - 2, argv + 2);
  cli_error("unknown command '%s' (try cairn --help)", cmd);
  return EXIT_USAGE;
}
