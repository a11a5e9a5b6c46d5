// Random playouts per CPU second of Sancho's state machine on one rule sheet: the peer
// column of benches/peers/sancho/rollouts.sh. Our driver (not Sancho's code): it is compiled
// by that script against a Sancho build made outside the repository.
//
// It does what Sancho's own StateMachinePerformanceAnalyser does for "direct state machine
// rollouts" (greedy rollouts off, the propnet's transition mechanism optimised for up to
// 5 s, then depth charges from the initial state), then the goal of every role in the final
// state from Sancho's goal network (as its search does after a rollout, and as yomi's
// ggp_table does), but reads a .kif file instead of a game repository and counts the measuring thread's CPU time, not wall time, as yomi's ggp_table
// example does, so that a busy machine stretches neither figure. The JIT is warmed up for
// WARM seconds (not counted) first.
//
// Usage: java -cp SANCHO_CLASSPATH:. SanchoRollouts FILE.kif SECS [WARM]
// Prints one tab-separated line: OK, load CPU s, load wall s, playouts per CPU s,
// plies per playout, mean goal over roles and playouts; or ERR and the
// reason.

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;

import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.statemachine.Role;
import org.ggp.base.util.propnet.polymorphic.forwardDeadReckon.ForwardDeadReckonInternalMachineState;
import org.ggp.base.util.statemachine.implementation.propnet.forwardDeadReckon.ForwardDeadReckonPropnetStateMachine;

public final class SanchoRollouts {
  public static void main(String[] args) {
    if (args.length < 2) {
      System.out.println("ERR\tusage: SanchoRollouts FILE.kif SECS [WARM]");
      System.exit(2);
    }
    try {
      System.out.println(run(args[0], Double.parseDouble(args[1]),
                             args.length > 2 ? Double.parseDouble(args[2]) : 1.0));
    } catch (Throwable e) {
      String why = String.valueOf(e).replaceAll("[\t\n\r|]", " ");
      System.out.println("ERR\t" + (why.length() > 120 ? why.substring(0, 120) + "…" : why));
    }
    System.out.flush();
    // Sancho may leave non-daemon threads behind.
    System.exit(0);
  }

  static String run(String file, double secs, double warm) throws Exception {
    ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    String text = new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
    long cpu0 = bean.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    List<Gdl> rules = Game.createEphemeralGame(Game.preprocessRulesheet(text)).getRules();
    ForwardDeadReckonPropnetStateMachine machine = new ForwardDeadReckonPropnetStateMachine();
    machine.initialize(rules);
    machine.enableGreedyRollouts(false, true);
    machine.optimizeStateTransitionMechanism(System.currentTimeMillis() + 5000);
    Role[] roles = machine.getRoles();
    ForwardDeadReckonInternalMachineState initial =
        machine.createInternalState(machine.getInitialState());
    double loadCpu = (bean.getCurrentThreadCpuTime() - cpu0) / 1e9;
    double loadWall = (System.nanoTime() - wall0) / 1e9;

    ForwardDeadReckonPropnetStateMachine.PlayoutInfo info = machine.new PlayoutInfo(-1);
    info.factor = null;
    info.cutoffDepth = 1000;
    // Warm-up, not counted.
    long warmEnd = bean.getCurrentThreadCpuTime() + (long) (warm * 1e9);
    long warmGoals = 0;
    while (bean.getCurrentThreadCpuTime() < warmEnd) {
      machine.getDepthChargeResult(initial, info);
      for (Role role : roles) {
        warmGoals += machine.getGoal(role);
      }
    }
    long goals = 0;
    long start = bean.getCurrentThreadCpuTime();
    long end = start + (long) (secs * 1e9);
    long playouts = 0;
    long plies = 0;
    long now = start;
    while (now < end) {
      machine.getDepthChargeResult(initial, info);
      playouts++;
      plies += info.playoutLength;
      for (Role role : roles) {
        goals += machine.getGoal(role);
      }
      // The clock is a system call: read it every 16 playouts (as ggp_table does).
      if ((playouts & 15) == 0) {
        now = bean.getCurrentThreadCpuTime();
      }
    }
    double used = (bean.getCurrentThreadCpuTime() - start) / 1e9;
    return String.format(Locale.ROOT, "OK\t%.2f\t%.2f\t%.0f\t%.1f\t%.1f", loadCpu, loadWall,
                         playouts / used, (double) plies / Math.max(1, playouts),
                         (double) goals / Math.max(1, playouts) / roles.length);
  }
}
