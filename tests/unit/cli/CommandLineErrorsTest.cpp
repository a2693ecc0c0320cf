//===- CommandLineErrorsTest.cpp - one line per command-line error --------===//
//
// LLVM's multi-line reports (as llvm::cl prints them) become one line that
// names the option, the value and the command.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/CommandLineErrors.h"

#include <gtest/gtest.h>

using namespace geflow::cli;

namespace {

CommandLineContext compileContext() {
  CommandLineContext c;
  c.programName = "geflow";
  c.command = "geflow compile";
  c.options = {"o",           "soc",         "no-fuse",     "streams",
               "max-streams", "stream-plan", "input-shape", "help"};
  c.commands = {"import", "compile", "run", "dump", "profile"};
  c.positional = "<model.onnx>";
  return c;
}

TEST(CommandLineErrors, UnknownOptionNamesTheCommandAndTheNearestOption) {
  EXPECT_EQ(describeCommandLineError(
                "geflow: Unknown command line argument '--fus'.  Try: "
                "'/usr/bin/geflow --help'\ngeflow: Did you mean '-o'?\n",
                compileContext()),
            "unknown option '--fus' for 'geflow compile' (did you mean "
            "'--no-fuse'?)");
  EXPECT_EQ(describeCommandLineError(
                "geflow: Unknown command line argument '--max-stream=4'.  "
                "Try: 'geflow --help'\n",
                compileContext()),
            "unknown option '--max-stream' for 'geflow compile' (did you "
            "mean '--max-streams'?)");
  // Nothing close: no guess.
  EXPECT_EQ(describeCommandLineError(
                "geflow: Unknown command line argument '--foo'.  Try: "
                "'geflow --help'\ngeflow: Did you mean '-o'?\n",
                compileContext()),
            "unknown option '--foo' for 'geflow compile'");
}

TEST(CommandLineErrors, UnknownCommandListsOrGuessesTheCommands) {
  CommandLineContext top = compileContext();
  top.command = "geflow";
  EXPECT_EQ(describeCommandLineError(
                "geflow: Unknown subcommand 'compil'.  Try: 'geflow --help'\n"
                "geflow: Did you mean 'compile'?\n"
                "geflow: Unknown command line argument 'x.onnx'.  Try: "
                "'geflow --help'\n",
                top),
            "unknown command 'compil' (did you mean 'compile'?)");
  EXPECT_EQ(
      describeCommandLineError(
          "geflow: Unknown subcommand 'frob'.  Try: 'geflow --help'\n", top),
      "unknown command 'frob' (expected import, compile, run, dump or "
      "profile)");
}

TEST(CommandLineErrors, BadValuesNameTheValueTheOptionAndWhatWasExpected) {
  CommandLineContext c = compileContext();
  EXPECT_EQ(describeCommandLineError("geflow: for the --max-streams option: "
                                     "'abc' value invalid for uint argument!\n",
                                     c),
            "invalid value 'abc' for '--max-streams' of 'geflow compile': "
            "expected an integer >= 0");
  EXPECT_EQ(describeCommandLineError("geflow: for the --rtol option: 'x' value "
                                     "invalid for floating point argument!\n",
                                     c),
            "invalid value 'x' for '--rtol' of 'geflow compile': expected a "
            "number");
  EXPECT_EQ(
      describeCommandLineError("geflow: for the --no-memory-reuse option: "
                               "'maybe' is invalid value for boolean "
                               "argument! Try 0 or 1\n",
                               c),
      "invalid value 'maybe' for '--no-memory-reuse' of 'geflow compile': "
      "expected true or false");
  EXPECT_EQ(describeCommandLineError("geflow: for the --streams option: Cannot "
                                     "find option named 'bogus'!\n",
                                     c),
            "invalid value 'bogus' for '--streams' of 'geflow compile' (see "
            "'geflow compile --help')");
}

TEST(CommandLineErrors, MissingValuesAndArgumentsNameWhatIsMissing) {
  CommandLineContext c = compileContext();
  EXPECT_EQ(describeCommandLineError(
                "geflow: for the -o option: requires a value!\n"
                "geflow: Not enough positional command line arguments "
                "specified!\nMust specify at least 1 positional argument: "
                "See: geflow --help\n",
                c),
            "option '-o' of 'geflow compile' needs a value");
  EXPECT_EQ(describeCommandLineError(
                "geflow: Not enough positional command line arguments "
                "specified!\nMust specify at least 1 positional argument: "
                "See: geflow --help\n",
                c),
            "'geflow compile' needs <model.onnx>");
  EXPECT_EQ(describeCommandLineError(
                "geflow: Too many positional arguments specified!\nCan "
                "specify at most 1 positional arguments: See: geflow --help\n",
                c),
            "too many arguments for 'geflow compile' (it takes one "
            "<model.onnx>)");
}

TEST(CommandLineErrors, AnUnmatchedMessageIsStillOneLine) {
  EXPECT_EQ(describeCommandLineError("geflow: Something new happened!  Try: "
                                     "'geflow --help'\nmore detail\n",
                                     compileContext()),
            "Something new happened");
}

llvm::cl::SubCommand testSub("compile-test", "a subcommand of this test");
llvm::cl::opt<std::string> testInput(llvm::cl::Positional,
                                     llvm::cl::desc("<model.onnx>"),
                                     llvm::cl::sub(testSub));
llvm::cl::opt<unsigned> testStreams("max-streams", llvm::cl::sub(testSub));
llvm::cl::opt<bool> testHidden("secret", llvm::cl::Hidden,
                               llvm::cl::sub(testSub));

TEST(CommandLineErrors, TheContextHoldsTheVisibleOptionsAndThePositional) {
  CommandLineContext c =
      commandLineContext("geflow", testSub, {"compile-test"});
  EXPECT_EQ(c.command, "geflow compile-test");
  EXPECT_EQ(c.positional, "<model.onnx>");
  EXPECT_NE(std::find(c.options.begin(), c.options.end(), "max-streams"),
            c.options.end());
  EXPECT_EQ(std::find(c.options.begin(), c.options.end(), "secret"),
            c.options.end());
}

} // namespace
