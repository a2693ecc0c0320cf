//===- CommandLineErrors.cpp ----------------------------------------------===//
//
// The messages matched here are llvm::cl's (llvm/lib/Support/CommandLine.cpp,
// LLVM 19); one that is not matched is still one line: LLVM's first, without
// its "Try: ... --help" tail.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/CommandLineErrors.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <sys/mman.h>
#include <unistd.h>

using namespace llvm;
using namespace geflow::cli;

namespace {

std::string quotedOption(StringRef name) {
  return (name.size() == 1 ? "'-" : "'--") + name.str() + "'";
}

/// The name a user most likely meant: close in spelling, or one that holds
/// what was typed ("--fuse" for "--no-fuse"); "" when none is close.
std::string nearestName(StringRef typed, ArrayRef<std::string> names) {
  std::string best;
  unsigned bestDistance = ~0u;
  unsigned allowed =
      std::max<unsigned>(1, std::min<size_t>(3, typed.size() / 3));
  for (const std::string &name : names) {
    unsigned distance = typed.edit_distance(name);
    bool holds = typed.size() >= 3 && StringRef(name).contains(typed);
    if ((distance <= allowed || holds) && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/// "a, b or c".
std::string listOf(ArrayRef<std::string> names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

/// The argument LLVM quoted after `prefix` (which ends with the opening
/// quote), up to the last `end`: the argument may itself hold quotes.
StringRef quotedArgument(StringRef line, StringRef prefix, StringRef end) {
  StringRef rest = line.drop_front(prefix.size());
  size_t close = rest.rfind(end);
  return close == StringRef::npos ? rest : rest.take_front(close);
}

std::string unknownArgument(StringRef arg, const CommandLineContext &c) {
  if (!arg.starts_with("-"))
    return "unexpected argument '" + arg.str() + "' for '" + c.command + "'";
  StringRef name = arg.ltrim('-').split('=').first;
  std::string line = "unknown option '" + arg.split('=').first.str() +
                     "' for '" + c.command + "'";
  std::string nearest = nearestName(name, c.options);
  if (!nearest.empty())
    line += " (did you mean " + quotedOption(nearest) + "?)";
  return line;
}

std::string unknownCommand(StringRef name, const CommandLineContext &c) {
  std::string nearest = nearestName(name, c.commands);
  if (!nearest.empty())
    return "unknown command '" + name.str() + "' (did you mean '" + nearest +
           "'?)";
  return "unknown command '" + name.str() + "' (expected " +
         listOf(c.commands) + ")";
}

/// "for the --max-streams option: 'abc' value invalid for uint argument!"
std::string badOptionUse(StringRef option, StringRef problem,
                         const CommandLineContext &c) {
  std::string where = "'" + option.str() + "' of '" + c.command + "'";
  problem = problem.trim();
  if (problem.starts_with("requires a value"))
    return "option " + where + " needs a value";
  if (problem.starts_with("may only occur zero or one times"))
    return "option " + where + " is given more than once";
  if (problem.starts_with("must be specified at least once"))
    return "option " + where + " is required";
  // "'V' value invalid for uint argument!" and the like.
  if (problem.starts_with("'")) {
    size_t close = problem.rfind("' ");
    if (close != StringRef::npos) {
      StringRef value = problem.slice(1, close);
      // "... for <type> argument!", <type> as the parser names it.
      StringRef type = problem.drop_front(close + 2)
                           .split(" for ")
                           .second.split(" argument")
                           .first;
      std::string expected =
          StringSwitch<std::string>(type)
              .Case("boolean", "true or false")
              .Cases("uint", "ulong", "ulonglong", "an integer >= 0")
              .Cases("int", "long", "long long", "an integer")
              .Case("floating point", "a number")
              .Default("");
      if (!expected.empty())
        return "invalid value '" + value.str() + "' for " + where +
               ": expected " + expected;
    }
  }
  // "Cannot find option named 'V'!": a value outside an enumeration.
  if (problem.starts_with("Cannot find option named '"))
    return "invalid value '" +
           quotedArgument(problem, "Cannot find option named '", "'").str() +
           "' for " + where + " (see '" + c.command + " --help')";
  return "option " + where + ": " + problem.rtrim('!').str();
}

/// Everything in `fd` from its start.
std::string readAll(int fd) {
  std::string text;
  char buffer[4096];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(fd, buffer, sizeof(buffer))) > 0;)
    text.append(buffer, static_cast<size_t>(n));
  return text;
}

} // namespace

bool geflow::cli::parseCommandLine(int argc, const char *const *argv,
                                   StringRef overview, std::string &messages) {
  // Both sinks go to stderr (llvm::errs() writes through at once), so the
  // messages keep their order; stderr is a memory file meanwhile.
  int capture = ::memfd_create("geflow-command-line", MFD_CLOEXEC);
  int saved = capture >= 0 ? ::dup(STDERR_FILENO) : -1;
  if (saved < 0) { // no memory file: LLVM's error stream alone
    if (capture >= 0)
      ::close(capture);
    raw_string_ostream errors(messages);
    return cl::ParseCommandLineOptions(argc, argv, overview, &errors);
  }
  errs().flush();
  ::dup2(capture, STDERR_FILENO);
  bool parsed = cl::ParseCommandLineOptions(argc, argv, overview, &errs());
  errs().flush();
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  messages = readAll(capture);
  ::close(capture);
  if (parsed)
    errs() << messages;
  return parsed;
}

CommandLineContext
geflow::cli::commandLineContext(StringRef programName, cl::SubCommand &sub,
                                const std::vector<std::string> &commands) {
  CommandLineContext context;
  context.programName = programName.str();
  context.command = programName.str();
  if (!sub.getName().empty())
    context.command += " " + sub.getName().str();
  for (const auto &entry : sub.OptionsMap)
    if (entry.second->getOptionHiddenFlag() == cl::NotHidden &&
        !entry.getKey().empty())
      context.options.push_back(entry.getKey().str());
  std::sort(context.options.begin(), context.options.end());
  context.commands = commands;
  if (!sub.PositionalOpts.empty())
    context.positional = sub.PositionalOpts.front()->HelpStr.str();
  return context;
}

std::string geflow::cli::describeCommandLineError(StringRef llvmMessages,
                                                  const CommandLineContext &c) {
  StringRef line = llvmMessages.split('\n').first.trim();
  line.consume_front(c.programName + ": ");
  if (line.starts_with("Unknown command line argument '"))
    return unknownArgument(
        quotedArgument(line, "Unknown command line argument '", "'."), c);
  if (line.starts_with("Unknown subcommand '"))
    return unknownCommand(quotedArgument(line, "Unknown subcommand '", "'."),
                          c);
  if (line.consume_front("for the ")) {
    auto [option, problem] = line.split(" option: ");
    return badOptionUse(option, problem, c);
  }
  std::string takes =
      c.positional.empty() ? "no arguments" : "one " + c.positional;
  if (line.starts_with("Not enough positional"))
    return "'" + c.command + "' needs " +
           (c.positional.empty() ? std::string("more arguments")
                                 : c.positional);
  if (line.starts_with("Too many positional"))
    return "too many arguments for '" + c.command + "' (it takes " + takes +
           ")";
  StringRef text = line.split("  Try: ").first.rtrim("!. ");
  return text.empty() ? "invalid command line" : text.str();
}
