// Times SecGraph's Percolation and NS (UndirectionedPropagation) modules on one case.
//
// Written for graphveil's benchmarks/bench_secgraph.py; compiled beside SecGraph's own classes by
// benchmarks/build_secgraph.py. It calls the same methods as SecGraph's command line
// (commandLine.commandLineMode: "-a Percolation" runs Percolation.runPercolation, "-a NS"
// UndirectionedPropagation.undirectionedPropagation), but times the matching alone: the graphs
// and seeds are read first with SecGraph's own readers, and the modules' progress lines
// ("added mapping ...", "end node ... mapped") go to a null stream instead of the console.
//
// Usage: java -cp <build>:<commons-math3.jar> GraphveilRace percolation G1 G2 SEEDS R_MINUS_1 OUT
//        java -cp <build>:<commons-math3.jar> GraphveilRace ns G1 G2 SEEDS THETA OUT
// G1 is the graph whose nodes are mapped (the target), G2 the one they are mapped to (the
// auxiliary graph); SEEDS holds lines "g1node g2node". OUT receives one line "g1node g2node" per
// mapped node (seeds included). The last line on stdout is "seconds <matching time>".

import java.io.BufferedWriter;
import java.io.FileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;

import common.Graph;
import deAnonymize.Percolation;
import deAnonymize.UndirectionedPropagation;

public class GraphveilRace {
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: GraphveilRace percolation|ns G1 G2 SEEDS PARAM OUT");
            System.exit(2);
        }
        HashMap<Integer, HashSet<Integer>> g1 = Graph.readUndirectedGraph(args[1]);
        HashMap<Integer, HashSet<Integer>> g2 = Graph.readUndirectedGraph(args[2]);
        HashMap<Integer, Integer> seeds = Graph.getSeeds(args[3]);
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        long start = System.nanoTime();
        HashMap<Integer, Integer> mapping;
        if (args[0].equals("percolation")) {
            mapping = Percolation.percolationMethod(g1, g2, seeds, Integer.parseInt(args[4]));
        } else if (args[0].equals("ns")) {
            // theta is a private static field, set by undirectionedPropagation(String...) only
            Field theta = UndirectionedPropagation.class.getDeclaredField("theta");
            theta.setAccessible(true);
            theta.setDouble(null, Double.parseDouble(args[4]));
            mapping = UndirectionedPropagation.propagationMethod(g1, g2, seeds);
        } else {
            throw new IllegalArgumentException("attack must be percolation or ns, got " + args[0]);
        }
        long stop = System.nanoTime();
        System.setOut(console);
        try (BufferedWriter w = new BufferedWriter(new FileWriter(args[5]))) {
            for (Map.Entry<Integer, Integer> e : mapping.entrySet()) {
                w.write(e.getKey() + " " + e.getValue() + "\n");
            }
        }
        System.out.println("seconds " + (stop - start) / 1e9);
    }
}
