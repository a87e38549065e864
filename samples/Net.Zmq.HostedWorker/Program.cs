// A Generic Host worker that serves REQ/REP with a blocking receive loop on the Context of Net.Zmq.Hosting.
//   dotnet run -- [--endpoint tcp://127.0.0.1:5555]   serve until Ctrl+C (SIGINT) or SIGTERM; prints "serving on <endpoint>"
//   dotnet run -- --self-test                         serve on an ephemeral port, ask it three requests, stop the host
//                                                     and check it stopped within a second; exit 0 when all held
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Net.Zmq.HostedWorker;
using Net.Zmq.Hosting;

bool selfTest = args.Contains("--self-test");
int endpointAt = Array.IndexOf(args, "--endpoint");
string endpoint = endpointAt >= 0 && endpointAt + 1 < args.Length ? args[endpointAt + 1]
    : selfTest ? "tcp://127.0.0.1:*" : "tcp://127.0.0.1:5555";

HostApplicationBuilder builder = Host.CreateApplicationBuilder();
builder.Logging.ClearProviders().AddSimpleConsole(options =>
{
    options.SingleLine = true;
    options.UseUtcTimestamp = true;
    options.TimestampFormat = "yyyy-MM-ddTHH:mm:ss.fffZ ";   // taken when the line is logged, before it is queued for the console
});
builder.Services.Configure<ConsoleLifetimeOptions>(options => options.SuppressStatusMessages = selfTest);
builder.Services.AddZmqContext();
builder.Services.AddSingleton(new ServerEndpoint(endpoint));
builder.Services.AddHostedService<EchoWorker>();

using IHost host = builder.Build();
ServerEndpoint server = host.Services.GetRequiredService<ServerEndpoint>();
if (!selfTest)
{
    await host.RunAsync();
    return server.Failed ? 1 : 0;
}

return await SelfTest.RunAsync(host, server);
